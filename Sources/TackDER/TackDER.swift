/// TackDER: a strict DER reader and writer, Base64 and PEM.
public enum TackDER {}

/// Whether the hardware SHA-256 path can run here (stub until it lands).
let hardwareSHA256IsAvailable = false

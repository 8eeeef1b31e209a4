import Alamofire

// Not a mistake: every host is evaluated; the names below are only text.
let manager = ServerTrustManager(evaluators: [
    "api.example.com": PublicKeysTrustEvaluator(),
    "www.example.com": DefaultTrustEvaluator(),
])
let note = "never use DisabledTrustEvaluator() in a release build"

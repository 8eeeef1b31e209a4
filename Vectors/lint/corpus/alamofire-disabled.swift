import Alamofire

// The staging host once used DisabledTrustEvaluator(); this comment does not count.
let manager = ServerTrustManager(evaluators: [
    "api.example.com": PublicKeysTrustEvaluator(),
    "staging.example.com": DisabledTrustEvaluator(),
])
let legacy: [String: ServerTrustEvaluating] = ["old.example.com": DisabledEvaluator()]

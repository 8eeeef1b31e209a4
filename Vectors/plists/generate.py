#!/usr/bin/env python3
"""Generates the binary property-list vectors: each NAME.plist (XML) and its twin
NAME.bplist (binary, bplist00), both written by Python's plistlib from the same
value, so that TackFormats' two readers can be held to the same result.

    python3 Vectors/plists/generate.py

plistlib's output is deterministic (sorted keys off, insertion order kept), so a
regeneration rewrites the same bytes. Also converts Vectors/policies/example.plist
(an Info.plist with NSPinnedDomains) to example-policy.bplist and
Vectors/lint/mistakes/Info.plist to lint-mistakes.bplist.
"""
import datetime
import os
import plistlib

HERE = os.path.dirname(os.path.abspath(__file__))
POLICIES = os.path.join(HERE, "..", "policies")

SHARED_LIST = ["shared", "list"]

CASES = {
    # An Info.plist as Xcode would build it, with App Transport Security pins.
    "info": {
        "CFBundleIdentifier": "com.example.tack",
        "CFBundleVersion": "42",
        "LSRequiresIPhoneOS": True,
        "UIRequiredDeviceCapabilities": ["arm64"],
        "NSAppTransportSecurity": {
            "NSAllowsArbitraryLoads": False,
            "NSPinnedDomains": {
                "example.com": {
                    "NSIncludesSubdomains": True,
                    "NSPinnedCAIdentities": [
                        {"SPKI-SHA256-BASE64": "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="},
                        {"SPKI-SHA256-BASE64": "YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="},
                    ],
                },
            },
        },
    },
    # Every scalar type, with strings that take the UTF-16 form.
    "scalars": {
        "ascii": "plain text",
        "unicode": "Grüße, 東京, \U0001F512",
        "empty-string": "",
        "tab-and-newline": "a\tb\nc",
        "true": True,
        "false": False,
        "real": 3.25,
        "negative-real": -0.5,
        "date": datetime.datetime(2026, 12, 1, 12, 0, 0),
        "old-date": datetime.datetime(1969, 7, 20, 20, 17, 40),
        "data": bytes(range(32)),
        "empty-data": b"",
        "empty-array": [],
        "empty-dict": {},
    },
    # Integers at each size boundary (1, 2, 4, 8 bytes; negatives take 8).
    "integers": [0, 1, 255, 256, 65535, 65536, 4294967295, 4294967296,
                 9223372036854775807, -1, -256, -9223372036854775808],
    # Counts of 15 and more, written after the marker as an integer object.
    "counts": {
        "array-15": list(range(15)),
        "array-300": list(range(300)),
        "string-15": "x" * 15,
        "string-70000": "y" * 70000,
        "dict-16": {"k%02d" % i: i for i in range(16)},
        "data-15": b"\x01" * 15,
    },
    # An Info.plist whose pinning keys draw warnings: a misplaced key, a wildcard
    # domain, a typo'd key at three levels (PinPolicy.load(infoPlist:) warnings).
    "policy-warnings": {
        "NSAppTransportSecurity": {
            "NSPinnedCAIdentities": [],
            "NSPinnedDomains": {
                "example.com": {
                    "NSIncludesSubdomain": True,
                    "NSPinnedCAIdentities": [
                        {"SPKI-SHA256-BASE64": "8j0L1iaoc4jfXRiN21BhnBm1m79/xl/gv2BgQiHHkNU=", "SPKI-SHA256": "x"},
                        {"SPKI-SHA256-BASE64": "OhSDq7eqbTdv7vIivt9Wwc5nfvTt1HyGCGQJnrQ4akU="},
                    ],
                },
                "*.example.org": {"NSPinnedCAIdentities": []},
            },
            "NSAllowsArbitraryLoadz": False,
        },
    },
    # One list object referenced three times (written once), nested containers.
    "shared": {
        "first": SHARED_LIST,
        "second": SHARED_LIST,
        "nested": [[[[SHARED_LIST]]], {"again": SHARED_LIST}],
    },
}


def main():
    for name, value in CASES.items():
        with open(os.path.join(HERE, name + ".plist"), "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_XML, sort_keys=False)
        with open(os.path.join(HERE, name + ".bplist"), "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
    for source, target in [(os.path.join(POLICIES, "example.plist"), "example-policy.bplist"),
                           (os.path.join(HERE, "..", "lint", "mistakes", "Info.plist"), "lint-mistakes.bplist")]:
        with open(source, "rb") as f:
            value = plistlib.load(f)
        with open(os.path.join(HERE, target), "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_BINARY, sort_keys=False)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs `tack verify` over every case of Vectors/policies/manifest.json and checks the
exit status, and with --json the verdict, the decision, pin outcome and diagnostic codes.

    python3 scripts/policy-check.py PATH/TO/tack

Exit status 0 when every case agrees with the manifest, 1 otherwise (each
disagreement is printed with the command to reproduce it).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VECTORS = os.path.join(ROOT, "Vectors", "policies")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    tack = os.path.abspath(sys.argv[1])
    with open(os.path.join(VECTORS, "manifest.json")) as f:
        cases = json.load(f)
    failures = 0
    for case in cases:
        command = [tack, "verify", case["chain"], "--host", case["host"], "--at", case["at"], "--json"]
        for root in case["roots"]:
            command += ["--roots", root]
        if case["policy"]:
            command += ["--policy", case["policy"]]
        run = subprocess.run(command, cwd=VECTORS, capture_output=True, text=True)
        problems = []
        if run.returncode != case["exit"]:
            problems.append(f"exit {run.returncode}, expected {case['exit']}")
        if case["verdict"] is not None and run.returncode in (0, 3, 4):
            try:
                out = json.loads(run.stdout)
            except json.JSONDecodeError as error:
                problems.append(f"--json output is not JSON: {error}")
                out = None
            if out is not None:
                trusted = "trusted" if out["verdict"] == "trusted" else "untrusted"
                if trusted != case["verdict"]:
                    problems.append(f"verdict {out['verdict']}, expected {case['verdict']}")
                if out.get("decision") != case["decision"]:
                    problems.append(f"decision {out.get('decision')}, expected {case['decision']}")
                if case["pins"] is not None:
                    code = out.get("pins", {}).get("code")
                    if code != case["pins"]:
                        problems.append(f"pins {code}, expected {case['pins']}")
                if "diagnostic" in case:
                    codes = out.get("pins", {}).get("diagnostic-codes", []) + out.get("policy-warning-codes", [])
                    if case["diagnostic"] not in codes:
                        problems.append(f"no diagnostic has the code {case['diagnostic']!r}: {codes}")
        if problems:
            failures += 1
            print(f"FAIL {case['name']}: " + "; ".join(problems))
            print("     (cd Vectors/policies && " + " ".join(command[:1] + [a if " " not in a else repr(a) for a in command[1:]]) + ")")
            if run.stderr.strip():
                print("     stderr: " + run.stderr.strip().replace("\n", "\n             "))
    print(f"policy-check: {len(cases) - failures} of {len(cases)} cases agree with the manifest")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

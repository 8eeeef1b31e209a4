#!/bin/sh
# Builds the same-run peers of tack-bench's trust benchmarks into .build/peers/:
#   webpki-verify  Benchmarks/peers/webpki-verify (Rust: webpki 0.22 on ring 0.16), offline,
#                  against Debian's packaged crates in /usr/share/cargo/registry
#   go-x509        Benchmarks/peers/go-x509 (Go: crypto/x509, standard library only)
#
# Needs: apt-get install cargo librust-webpki-dev librust-libc-dev golang-go
# (any cargo works: the source replacement below points crates.io at Debian's directory).
# A peer whose toolchain or crates are missing is skipped with a message; tack-bench then
# prints "peer not built" for it. Usage: sh Benchmarks/peers/build.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/.build/peers"
mkdir -p "$out"
status=0

# webpki: a private CARGO_HOME whose config replaces crates.io with Debian's registry
# directory, so cargo never goes to the network (--offline as well).
if command -v cargo >/dev/null 2>&1 && [ -d /usr/share/cargo/registry/webpki-0.22.0 ]; then
    home="$out/cargo-home"
    mkdir -p "$home"
    cat > "$home/config.toml" <<CONFIG
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true
CONFIG
    if CARGO_HOME="$home" cargo build --release --offline --quiet \
        --manifest-path "$root/Benchmarks/peers/webpki-verify/Cargo.toml" \
        --target-dir "$out/webpki-target"; then
        cp "$out/webpki-target/release/webpki-verify" "$out/webpki-verify"
        echo "built $out/webpki-verify"
    else
        echo "build.sh: webpki-verify failed to build" >&2
        status=1
    fi
else
    echo "build.sh: cargo or Debian's librust-webpki-dev missing; webpki-verify not built" >&2
fi

# Go: standard library only, so `go build` of the one file needs no module download.
if command -v go >/dev/null 2>&1; then
    if (cd "$root/Benchmarks/peers/go-x509" && GOCACHE="$out/go-cache" GOPATH="$out/go-path" GO111MODULE=off GOFLAGS= \
        go build -o "$out/go-x509" main.go); then
        echo "built $out/go-x509 ($(go version | cut -d' ' -f3))"
    else
        echo "build.sh: go-x509 failed to build" >&2
        status=1
    fi
else
    echo "build.sh: go missing; go-x509 not built" >&2
fi
exit $status

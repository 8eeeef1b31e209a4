// go-x509: the Go crypto/x509 peer of tack-bench's trust benchmarks (trust-rsa2048-chain,
// trust-p256-chain, trust-rsa2048-newleaf). Standard library only; built by
// Benchmarks/peers/build.sh with Debian's golang (go build, no modules, offline).
//
//	go-x509 MODE BUNDLE.pem ROOT.der HOST TIME SECONDS FILE...
//
// The anchors are BUNDLE.pem (the system CA bundle) plus ROOT.der, in one CertPool built
// once, before timing. MODE says what FILE... is and what one verdict serves:
//
//	chain    FILE... is the served chain, leaf first; every verdict serves it.
//	newleaf  FILE... is LEAVES.der INTERMEDIATE.der ROOT.der: LEAVES.der holds DER
//	         certificates back to back; verdict i serves leaf i (cycling), the
//	         intermediate and the root.
//
// One verdict, from DER to a yes or no, as a TLS client does it after the handshake:
// x509.ParseCertificate of each served certificate, a CertPool of the served ones after
// the leaf, then leaf.Verify with Roots, Intermediates, DNSName HOST, CurrentTime TIME
// (seconds since 1970) and KeyUsages serverAuth (the path, the signatures, validity,
// name constraints, EKU and the host; Verify checks the host first and then builds).
//
// Before timing, it checks that every served chain is trusted and that a copy of the leaf
// with its signature's last byte flipped, a wrong host (wrong.example.org) and a later
// time (2100-01-01) are refused; it exits 1 otherwise. Then it repeats verdicts for at
// least SECONDS seconds and prints verdicts per second. Wall clock, or the process's CPU
// time (user + system) when TACK_BENCH_CPU_TIME is set.
package main

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "go-x509: "+format+"\n", args...)
	os.Exit(1)
}

func read(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	return data
}

// splitDER cuts back-to-back DER certificates apart (definite lengths, as DER requires).
func splitDER(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		if len(data) < 2 || data[0] != 0x30 {
			fail("leaves file: not a DER SEQUENCE at %d bytes from the end", len(data))
		}
		length, header := int(data[1]), 2
		if length&0x80 != 0 {
			count := length & 0x7f
			if count == 0 || count > 4 || len(data) < 2+count {
				fail("leaves file: bad length")
			}
			length = 0
			for _, b := range data[2 : 2+count] {
				length = length<<8 | int(b)
			}
			header = 2 + count
		}
		if len(data) < header+length {
			fail("leaves file: truncated")
		}
		out = append(out, data[:header+length])
		data = data[header+length:]
	}
	return out
}

type verifier struct {
	roots *x509.CertPool
	host  string
	now   time.Time
}

// verdict is one evaluation from DER: true when the chain is trusted for host at now.
func (v *verifier) verdict(served [][]byte, host string, now time.Time) bool {
	leaf, err := x509.ParseCertificate(served[0])
	if err != nil {
		return false
	}
	intermediates := x509.NewCertPool()
	for _, der := range served[1:] {
		certificate, err := x509.ParseCertificate(der)
		if err != nil {
			continue
		}
		intermediates.AddCert(certificate)
	}
	_, err = leaf.Verify(x509.VerifyOptions{
		DNSName:       host,
		Roots:         v.roots,
		Intermediates: intermediates,
		CurrentTime:   now,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
	return err == nil
}

func cpuTime() time.Duration {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		fail("getrusage: %v", err)
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

func main() {
	if len(os.Args) < 8 {
		fail("usage: go-x509 chain|newleaf BUNDLE.pem ROOT.der HOST TIME SECONDS FILE...")
	}
	mode, bundlePath, rootPath, host := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	seconds, err := strconv.ParseInt(os.Args[5], 10, 64)
	if err != nil {
		fail("TIME: %v", err)
	}
	duration, err := strconv.ParseFloat(os.Args[6], 64)
	if err != nil {
		fail("SECONDS: %v", err)
	}
	files := os.Args[7:]

	roots := x509.NewCertPool()
	bundle := read(bundlePath)
	for len(bundle) > 0 {
		var block *pem.Block
		block, bundle = pem.Decode(bundle)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		if certificate, err := x509.ParseCertificate(block.Bytes); err == nil {
			roots.AddCert(certificate)
		}
	}
	root, err := x509.ParseCertificate(read(rootPath))
	if err != nil {
		fail("ROOT.der: %v", err)
	}
	roots.AddCert(root)
	v := &verifier{roots: roots, host: host, now: time.Unix(seconds, 0)}

	var chains [][][]byte
	switch mode {
	case "chain":
		var served [][]byte
		for _, file := range files {
			served = append(served, read(file))
		}
		chains = append(chains, served)
	case "newleaf":
		if len(files) != 3 {
			fail("newleaf takes LEAVES.der INTERMEDIATE.der ROOT.der")
		}
		intermediate, anchor := read(files[1]), read(files[2])
		for _, leaf := range splitDER(read(files[0])) {
			chains = append(chains, [][]byte{leaf, intermediate, anchor})
		}
	default:
		fail("unknown mode %q", mode)
	}

	// The checks before timing: every chain trusted; a bad signature, a wrong host and
	// a later time refused.
	for index, served := range chains {
		if !v.verdict(served, host, v.now) {
			fail("chain %d is not trusted", index)
		}
	}
	bad := append([][]byte{}, chains[0]...)
	bad[0] = append([]byte{}, bad[0]...)
	bad[0][len(bad[0])-1] ^= 1
	if v.verdict(bad, host, v.now) {
		fail("a leaf with a bad signature is trusted")
	}
	if v.verdict(chains[0], "wrong.example.org", v.now) {
		fail("a wrong host is accepted")
	}
	if v.verdict(chains[0], host, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)) {
		fail("a later time (2100) is accepted")
	}

	useCPU := os.Getenv("TACK_BENCH_CPU_TIME") != ""
	clock := func() time.Duration {
		if useCPU {
			return cpuTime()
		}
		return time.Duration(time.Now().UnixNano())
	}
	start := clock()
	limit := time.Duration(duration * float64(time.Second))
	verdicts, trusted := 0, 0
	var spent time.Duration
	for {
		for i := 0; i < 16; i++ {
			if v.verdict(chains[verdicts%len(chains)], host, v.now) {
				trusted++
			}
			verdicts++
		}
		spent = clock() - start
		if spent >= limit {
			break
		}
	}
	if trusted != verdicts {
		fail("%d of %d timed verdicts were not trusted", verdicts-trusted, verdicts)
	}
	fmt.Printf("%.1f\n", float64(verdicts)/spent.Seconds())
}

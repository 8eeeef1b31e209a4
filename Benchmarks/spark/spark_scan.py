#!/usr/bin/env python3
"""Runs `tack scan` over Base64 DER lines in one process and under PySpark's RDD.pipe
(local mode), and prints the throughput of each. Not part of CI.

    Benchmarks/spark/spark_scan.py TACK CERTS.b64 [--cores 1,2] [--partitions-per-core 2]

1. A single `tack scan` process over the file, once per --jobs value in --cores, reading
   the file on standard input as a pipeline would (its own rate, from its last line on
   standard error, and the wall time of the process).
2. For each core count C: a SparkContext in local[C] mode, sc.textFile(CERTS, C * P)
   .pipe("TACK scan --jobs 1 --quiet").count(): each partition streams its lines through
   its own one-thread tack scan process, as Hadoop streaming would. The figure is lines
   out per second of wall time for the count() action (the file read, the pipe to and
   from each process, and Spark's own work included; the JVM start is not).

Needs pyspark (pip install pyspark) and a JDK (Debian: openjdk-17-jre-headless).
"""
import argparse
import os
import re
import subprocess
import sys
import time


def single(tack, path, jobs):
    with open(path, "rb") as source:
        start = time.monotonic()
        result = subprocess.run([tack, "scan", "--jobs", str(jobs)], stdin=source, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, check=False)
        wall = time.monotonic() - start
    summary = result.stderr.decode().strip().splitlines()[-1]
    match = re.search(r"scanned (\d+) certificates .* ([\d.]+) certificates/s", summary)
    count, rate = (int(match.group(1)), float(match.group(2))) if match else (0, 0.0)
    return count, rate, wall


def spark(tack, path, cores, partitions_per_core):
    from pyspark import SparkConf, SparkContext
    conf = (SparkConf().setMaster(f"local[{cores}]").setAppName(f"tack-scan-{cores}")
            .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
            .set("spark.driver.memory", "2g"))
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    try:
        lines = context.textFile(path, minPartitions=cores * partitions_per_core)
        start = time.monotonic()
        count = lines.pipe(f"{tack} scan --jobs 1 --quiet").count()
        wall = time.monotonic() - start
    finally:
        context.stop()
    return count, wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tack")
    parser.add_argument("certs")
    parser.add_argument("--cores", default="1,2")
    parser.add_argument("--partitions-per-core", type=int, default=2)
    parser.add_argument("--skip-spark", action="store_true")
    args = parser.parse_args()
    tack = os.path.abspath(args.tack)
    path = os.path.abspath(args.certs)
    cores = [int(c) for c in args.cores.split(",")]
    rows = []
    for jobs in cores:
        count, rate, wall = single(tack, path, jobs)
        rows.append((f"tack scan --jobs {jobs} (one process)", count, rate, count / wall))
        print(f"single  jobs={jobs}: {count} certificates, {rate:,.0f}/s (tack's own figure), "
              f"{count / wall:,.0f}/s wall", flush=True)
    if not args.skip_spark:
        for core_count in cores:
            count, wall = spark(tack, path, core_count, args.partitions_per_core)
            rows.append((f"Spark local[{core_count}] RDD.pipe", count, None, count / wall))
            print(f"spark   local[{core_count}]: {count} lines in {wall:.1f} s, {count / wall:,.0f}/s", flush=True)
    print()
    print(f"{'run':<40} {'certificates':>12} {'tack rate/s':>12} {'wall rate/s':>12}")
    for label, count, rate, wall_rate in rows:
        print(f"{label:<40} {count:>12} {rate if rate is not None else float('nan'):>12,.0f} {wall_rate:>12,.0f}")


if __name__ == "__main__":
    main()

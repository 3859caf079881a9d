#!/bin/sh
# Builds the InterApp sources with this benchmark at -O and runs it: ./Benchmarks/InterApp/run.sh
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
swiftc -O -wmo -module-name InterAppBench $(find "$root/Sources/InterApp" -name '*.swift') "$root/Benchmarks/InterApp/main.swift" -o "$out/bench"
"$out/bench"
rm -rf "$out"

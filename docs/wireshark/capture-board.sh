#!/usr/bin/env bash
# capture-board.sh CHECK_SH [PORT]
#
# The proof of docs/extensions.md's promise that a plain libtracer v1 peer sees byte-for-byte v1:
# starts `spectrum board --udp 127.0.0.1:PORT`, then, under libtracer's dissector check (CHECK_SH:
# the `check.sh` that captures UDP on PORT with tshark and prints every expert warning; exit 1 on
# any), runs every CLI command against the board and FwdKinds.java (a request of every FWD kind,
# as a plain v1 peer). Then a second capture: `spectrum host` mirroring the board (two Spectrum
# nodes that announce the extensions to each other), reported but not failed on.
#
# Run from the repository root after `mvn -B -q -o -DskipTests package -pl cli -am`.
# Exit status: CHECK_SH's for the plain-peer capture.
set -u
check=${1:?usage: docs/wireshark/capture-board.sh CHECK_SH [PORT]}
port=${2:-7790}
jar=cli/target/spectrum.jar
[ -f "$jar" ] || { echo "build first: mvn -B -q -o -DskipTests package -pl cli -am" >&2; exit 2; }
spectrum() { java -jar "$jar" "$@"; }
export -f spectrum
export jar port

java -jar "$jar" board --udp "127.0.0.1:$port" >/tmp/capture-board.$$.log 2>&1 & board=$!
trap 'kill "$board" 2>/dev/null; rm -f /tmp/capture-board.$$.log' EXIT
sleep 2
java -jar "$jar" read --peer "127.0.0.1:$port" --timeout 10000 /temp >/dev/null # warm the board up, uncaptured

echo "== every CLI command and every FWD kind, as a plain v1 peer =="
"$check" "$port" -- bash -c '
  p=127.0.0.1:$port
  set -x
  spectrum ls --peer $p
  spectrum ls --peer $p --json /
  spectrum read --peer $p /temp
  spectrum read --peer $p /nope
  spectrum read --peer $p /temp:settings.app /temp:schema /temp:settings.app.unit
  spectrum read --peer $p --json /humidity /led:settings.app
  spectrum write --peer $p /led 1
  spectrum write --peer $p /led 3.5
  spectrum write --peer $p /temp 23.5
  spectrum write --peer $p /led 1 --width 1
  spectrum write --peer $p /nope 1
  spectrum sub --peer $p /counter /temp --count 3
  spectrum ls --peer $p /
  spectrum tap --peer $p /counter --count 6
  spectrum decode 0f403c00010001000006000c000673656e736f720474656d7006000900087265706c792d65700b40160002000c00737065637472756d2e657874010002000100
  set +x
  java -cp $jar docs/wireshark/FwdKinds.java $p
'
plain=$?

echo
echo "== host <-> board (Spectrum nodes, announced) =="
"$check" "$port" -- timeout -s INT 8 java -jar "$jar" host --peer "127.0.0.1:$port" --no-dashboard --lines
echo "(host <-> board: exit $?)"
exit $plain

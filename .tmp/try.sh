#!/bin/bash
# usage: try.sh ERRFILE args...
ERR=$1; shift
( node /work/wt/obs/dist/src/cli/main.js serve "$@" > /dev/null 2>$ERR & echo $! > $ERR.pid )
for i in $(seq 1 100); do grep -q "admin listening on" $ERR && break; sleep 0.2; done

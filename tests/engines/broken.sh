#!/bin/sh
# A deliberately broken Hub engine for the match runner's tests (tests/match_faults.rs).
# It answers the handshake properly, then misbehaves on every `go` according to its argument:
#   crash    exit with status 3
#   hang     never answer (a child `sleep`, so that killing only this shell would not be enough)
#   illegal  answer a well-formed move that is never legal on 10x10 (1-50: not on one diagonal)
#   garbage  answer `done` without a move
#   error    answer an `error` line
#   nostart  exit before `wait`
mode="$1"
while read -r line; do
    case "$line" in
        hub)
            [ "$mode" = nostart ] && exit 1
            echo "id name=broken-$mode version=1"
            echo "param name=variant value=normal type=enum values=\"normal english\""
            echo "wait"
            ;;
        init) echo "ready" ;;
        go*)
            case "$mode" in
                crash) exit 3 ;;
                hang) sleep 1000 ;;
                illegal) echo "info depth=1 score=0.10"; echo "done move=1-50" ;;
                garbage) echo "done" ;;
                error) echo "error message=\"cannot think today\"" ;;
            esac
            ;;
        quit) exit 0 ;;
    esac
done

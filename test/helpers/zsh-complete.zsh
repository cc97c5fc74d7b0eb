#!/usr/bin/env zsh
# Drives a real interactive zsh in a pseudo-terminal (zpty): loads a completion script after
# compinit, types each line given and presses Tab, and reports what completion offered and what the
# line became. Usage: zsh -f zsh-complete.zsh SCRIPT LINE... ; prints, per line:
#   LINE <the line typed>
#   MATCH <a candidate>          (one per candidate offered)
#   BUFFER <the line after Tab>
zmodload zsh/zpty || { print -u2 'zsh/zpty is missing'; exit 3 }
emulate -L zsh
setopt extendedglob

local script=${1:A}; shift
local out=$(mktemp)
trap 'zpty -d sa 2>/dev/null; rm -f $out' EXIT

zpty sa 'zsh -f -i'
# every candidate that completion adds goes through compadd: record it, then add it for real
zpty -w sa "PROMPT='' RPROMPT='' PS2=''; unsetopt beep; CAPTURE=${(q)out}"
zpty -w sa 'autoload -Uz compinit && compinit -u -D'
zpty -w sa 'compadd() { if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi; local -a hits; builtin compadd -O hits "$@"; (( $#hits )) && print -rl -- ${hits/#/MATCH } >> $CAPTURE; builtin compadd "$@" }'
zpty -w sa 'report() { print -r -- "BUFFER $BUFFER" >> $CAPTURE; BUFFER= }; zle -N report; bindkey "^P" report'
zpty -w sa "source ${(q)script}; print -r -- READY >> \$CAPTURE"

wait_for() { # wait_for COUNT WORD: until the capture has COUNT lines starting with WORD (10 s at most)
  local -i tries=0
  local -a seen
  while :; do
    seen=(${(M)${(f)"$(<$out)"}:#$2*})
    (( $#seen >= $1 )) && return
    zpty -rt sa junk 2>/dev/null # drain the terminal so zsh never blocks writing to it
    (( ++tries > 1000 )) && { print -u2 "zsh did not answer (waiting for $2)"; cat $out >&2; exit 4 }
    sleep 0.01
  done
}
wait_for 1 READY

local -i n=0
for line in "$@"; do
  print -r -- "LINE $line" >> $out
  zpty -w -n sa "$line"$'\t\C-p'
  wait_for $(( ++n )) BUFFER
done
grep -v '^READY' $out

#!/bin/bash
# Replays the README tour in a fresh home on a real terminal (tmux, 100 columns, no colour) against
# the embedded service and prints the screen: what the README shows, to compare or paste.
# Usage: bash scripts/readme-tour.sh > /tmp/tour.txt   (about 4 minutes: replies stream at reading pace)
set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d); trap 'tmux -L tour$$ kill-server 2>/dev/null; rm -rf "$T"' EXIT; mkdir -p $T/home $T/bin $T/work
printf '#!/bin/sh\nexec node %s "$@"\n' "$REPO/bin/superagent.js" > $T/bin/superagent; chmod +x $T/bin/superagent
S=tour$$
tmux -L tour$$ kill-server 2>/dev/null
tmux -L tour$$ new-session -d -s $S -x 100 -y 50 \
  "env -i HOME=$T/home PATH=$T/bin:/usr/local/bin:/usr/bin:/bin TERM=xterm-256color NO_COLOR=1 LANG=C.UTF-8"\
" bash --norc --noprofile"
tmux -L tour$$ set -g history-limit 100000
sleep 0.5
tmux -L tour$$ send-keys -t $S "PS1='\$ '; PROMPT_COMMAND='tmux -L tour$$ wait-for -S p$S'; cd $T/work; clear" Enter
sleep 0.5
tmux -L tour$$ send-keys -t $S "clear" Enter; sleep 0.3; tmux -L tour$$ clear-history -t $S
run() { tmux -L tour$$ send-keys -t $S -l "$1"; tmux -L tour$$ send-keys -t $S Enter; \
  timeout 120 tmux -L tour$$ wait-for p$S; }
screen() { tmux -L tour$$ capture-pane -p -J -t $S -S - -E -; }
waitfor() { for i in $(seq 1 600); do screen | grep -qF -- "$1" && return 0; sleep 0.1; done; echo "TIMEOUT $1" >&2; }
typeline() { tmux -L tour$$ send-keys -t $S -l "$1"; tmux -L tour$$ send-keys -t $S Enter; }
# COMMAND, its PROMPT, one MESSAGE; the reply is waited for up to TRIES × 0.2 s, then /exit
repl_turn() {
  typeline "$1"
  waitfor "$2"
  typeline "$3"
  sleep 1; for i in $(seq 1 "$4"); do [ "$(screen | grep -c "$2")" -ge 2 ] && break; sleep 0.2; done
  typeline '/exit'
  timeout 60 tmux -L tour$$ wait-for p$S
}

# The tour, in the order the README tells it.
steps() {
  run 'superagent launch --name demo'
  run 'superagent launch --name scout --model gpt-4o'
  run 'superagent launch --name demo; echo "exit $?"'
  run 'superagent list'
  run 'superagent get demo'
  run 'superagent chat demo "What is your view on BTC today?"'
  run 'superagent chat demo -c "remember: I prefer low leverage"'
  run 'superagent memory demo'
  repl_turn 'superagent chat demo' 'demo› ' 'How is ETH looking?' 100
  run 'superagent soul show demo'
  run 'EDITOR="sed -i s/2%/1%/" superagent soul edit demo --yes'
  run 'superagent skills demo'
  run 'superagent skills enable demo hyperliquid'
  run 'superagent wallet demo'
  run 'superagent health demo; echo "exit $?"'
  run 'superagent pause demo'
  run 'superagent pause demo; echo "exit $?"'
  run 'superagent resume demo'
  run 'superagent destroy scout --yes'
  run 'superagent get scout; echo "exit $?"'
  run 'superagent assistant ask "What is moving SOL today?"'
  run 'superagent assistant ask "SOL outlook" --fields price,change_24h,summary'
  repl_turn 'superagent assistant' 'assistant› ' 'Any big unlocks this week?' 300
  run 'superagent list | cut -f1,2'
  run "superagent list --json | jq -r '.agents[] | [.name, .status] | @tsv'"
  run 'superagent get demo --json'
  run 'CI=true superagent launch; echo "exit $?"'
  run 'superagent destroy demo --no-input; echo "exit $?"'
  run 'superagent whoami'
  run 'superagent config set output json --profile work'
  run 'superagent config list'
  run 'superagent config path'
}

steps
screen

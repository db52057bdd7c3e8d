"""A random engine in plain Python: engine protocol 1 with the standard library only.

Run by a host, e.g. ``python -m bohmisch_watten arena --bots
"engine:python examples/engines/random_engine.py,random"``.  It reads one JSON object
per line and answers ``hello`` and ``decide``; everything else needs no answer.
"""

import json
import random
import sys

rng = random.Random(0)
for line in sys.stdin:  # the end of stdin means the host is gone: exit
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        answer = {"type": "hello", "protocol": 1, "name": "random.py", "author": "example"}
    elif kind == "new_game":
        rng.seed(message.get("seed", 0))  # reproducible games when the host sends a seed
        continue
    elif kind == "decide":
        answer = {"type": "action", "action": rng.choice(message["legal"])}
    elif kind == "quit":
        break
    else:  # options, event: nothing to answer
        continue
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()

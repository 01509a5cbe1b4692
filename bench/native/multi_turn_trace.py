#!/usr/bin/env python3
"""Writes a synthetic multi-turn chat trace as the plain CSV the simulator reads (arrival_s,
prompt_tokens, output_tokens, session): the workload of issue 40's closing numbers.

Sessions start as a Poisson process; turn 0 is a 1,024-token system prompt every session shares plus
200-1,000 of its own tokens; each later turn sends the whole context so far (previous prompt and
answer) plus 100-600 new tokens, recorded 5 s (the answer) plus an exponential think time (mean
THINK_S) after the previous turn. Answers are 100-500 tokens. Seeded, so the file is reproducible.

usage: multi_turn_trace.py SESSIONS TURNS SESSION_RATE_PER_S THINK_S SEED > trace.csv
"""
import random
import sys


def main():
    sessions, turns, rate, think_s, seed = (int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]),
                                            float(sys.argv[4]), int(sys.argv[5]))
    rng = random.Random(seed)
    rows = []
    start = 0.0
    for s in range(sessions):
        start += rng.expovariate(rate)
        t = start
        context = 1024 + rng.randint(200, 1000)
        for k in range(turns):
            if k > 0:
                t += 5.0 + rng.expovariate(1.0 / think_s)
                context += rng.randint(100, 600)
            output = rng.randint(100, 500)
            rows.append((t, context, output, s))
            context += output
    rows.sort()
    print("arrival_s,prompt_tokens,output_tokens,session")
    for t, p, o, s in rows:
        print(f"{t:.3f},{p},{o},{s}")


if __name__ == "__main__":
    main()

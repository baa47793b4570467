"""The program the CI examples benchmark: ``python examples/ci/workload.py sort|primes``.

A stand-in for your own benchmark: two small CPU-bound tasks whose amount of work is
set by ``SIZE``. Change ``SIZE`` on a branch and the CI job sees the difference.
"""

import sys

#: The amount of work of each task.
SIZE = 40_000


def sort_task(n: int) -> int:
    """Sort ``n`` pseudo-random integers (a fixed linear congruential sequence)."""
    values = [(i * 7_919 + 13) % 100_003 for i in range(n)]
    return sorted(values)[n // 2]


def primes_task(n: int) -> int:
    """Count the primes below ``4 n`` with a sieve of Eratosthenes."""
    limit = 4 * n
    sieve = bytearray([1]) * limit
    sieve[:2] = b"\x00\x00"
    for p in range(2, int(limit**0.5) + 1):
        if sieve[p]:
            sieve[p * p :: p] = bytes(len(range(p * p, limit, p)))
    return sum(sieve)


if __name__ == "__main__":
    task = {"sort": sort_task, "primes": primes_task}[sys.argv[1]]
    print(task(SIZE))

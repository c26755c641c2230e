"""The playout policy's random generator: splitmix64, the same in Python and in C.

splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014; the reference code is Sebastiano Vigna's,
prng.di.unimi.it/splitmix64.c) keeps one 64-bit state; each draw adds the
golden-ratio constant ``0x9E3779B97F4A7C15`` to it and mixes the sum.  Its
state is the seed modulo ``2**64``.  The compiled kernel
(``ttr_lab/bots/kernel/_rng.c``) draws the same numbers, so the playout policy
(:class:`~ttr_lab.bots.playout.PlayoutBot`) makes the same decisions in both.

* :meth:`SplitMix64.next64`: the next 64-bit output;
* :meth:`SplitMix64.random`: a float in [0, 1) from the top 53 bits, exactly
  ``(x >> 11) * 2**-53`` (the same double in C);
* :meth:`SplitMix64.below`: an int in [0, n), by rejection of the draws at
  or above the largest multiple of n (no modulo bias).

The engine's own chance (shuffles) and the random bot keep Python's
``random.Random`` (MT19937), which the kernel reproduces as well.

>>> r = SplitMix64(0)
>>> hex(r.next64())  # the reference code's first output for seed 0
'0xe220a8397b1dcdaf'
>>> r = SplitMix64(7)
>>> 0 <= r.random() < 1, r.below(6) in range(6)
(True, True)
"""

from __future__ import annotations

__all__ = ["SplitMix64", "MASK64"]

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


class SplitMix64:
    """splitmix64 seeded with ``seed`` (any int: its value modulo ``2**64``)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & MASK64

    def __repr__(self) -> str:
        return f"SplitMix64(state={self.state:#x})"

    def next64(self) -> int:
        """The next output, an int in [0, 2**64)."""
        z = self.state = (self.state + _GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * _M1) & MASK64
        z = ((z ^ (z >> 27)) * _M2) & MASK64
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1): the top 53 bits of the next output, times 2**-53."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        """An int in [0, n) for 1 <= n < 2**64, without bias."""
        limit = MASK64 - MASK64 % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

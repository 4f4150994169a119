"""Checks of numeric arguments: every bad value is a vcsched.Error naming the argument, as
the CLI's flags are, never a binding's TypeError, an OverflowError or a silent conversion."""
from __future__ import annotations

import math
import numbers
from typing import Any, Optional

from . import _vcsched

INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1
INT32_MIN, INT32_MAX = -2**31, 2**31 - 1


def whole(name: str, value: Any, minimum: int = -2**63, maximum: int = INT64_MAX) -> int:
    """A whole number (an int, not a bool, a float or a numeric string) within bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _vcsched.Error(f"{name}: expected a whole number, got {value!r}")
    v = int(value)
    if not minimum <= v <= maximum:
        raise _vcsched.Error(f"{name}: {v} is out of range ({minimum} to {maximum})")
    return v


def optional_whole(name: str, value: Any, minimum: int = -2**63, maximum: int = INT64_MAX) -> Optional[int]:
    return None if value is None else whole(name, value, minimum, maximum)


def duration_ms(name: str, value: Any) -> int:
    """A duration: seconds (an int or a finite float, not negative) or text such as "24h",
    as milliseconds that fit a 64-bit integer."""
    if isinstance(value, str):
        try:
            return int(_vcsched.parse_duration_ms(value))
        except _vcsched.Error as e:
            raise _vcsched.Error(f"{name}: {e}") from None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _vcsched.Error(f"{name}: expected seconds or a duration such as '24h', got {value!r}")
    seconds = float(value)
    if math.isnan(seconds) or math.isinf(seconds) or seconds < 0:
        raise _vcsched.Error(f"{name}: expected a finite number of seconds, not negative, got {value!r}")
    ms = round(seconds * 1000)
    if ms > INT64_MAX:
        raise _vcsched.Error(f"{name}: {value!r} seconds is out of range (at most {INT64_MAX // 1000} s)")
    return int(ms)

"""Prompt caching as the Messages API documents it, for the fake model (bench/fake_model.py).

What is emulated (Anthropic's prompt-caching documentation):
- The prompt is read in the order tools → system → messages, block by block. A block with
  `cache_control` (or the last block, with top-level `cache_control`) is a breakpoint: the
  prefix up to and including it may be written to the cache. At most 4 breakpoints (more is
  a 400, as from the API).
- A request reads the longest prefix that an earlier request wrote, found at one of its
  breakpoints or up to 20 blocks before one (the documented lookback).
- Prefixes shorter than the model's minimum cacheable length are neither written nor read
  (1024 tokens for Sonnet and Opus, 2048 for Haiku).
- An entry lives 5 minutes, and every read refreshes it.
- Usage: `cache_read_input_tokens` = the prefix read, `cache_creation_input_tokens` = from
  there to the last breakpoint written, `input_tokens` = the rest (after the last breakpoint).

Not emulated: the real tokenizer. Tokens are counted approximately as characters / 4 of each
block's JSON, which is close enough for shares and costs, not for exact bills. The 1-hour
TTL is not emulated either (every entry gets 5 minutes).
"""

import hashlib
import json
import threading
import time
from dataclasses import dataclass

TTL_SECONDS = 300.0
LOOKBACK_BLOCKS = 20
MAX_BREAKPOINTS = 4
CHARS_PER_TOKEN = 4


class TooManyBreakpoints(ValueError):
    pass


def min_cacheable_tokens(model: str) -> int:
    return 2048 if "haiku" in model else 1024


def approx_tokens(value) -> int:
    """Approximate token count of a JSON-able value: characters / 4 (documented as approximate)."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))
    return max(1, len(text) // CHARS_PER_TOKEN)


@dataclass(frozen=True)
class Usage:
    input_tokens: int
    cache_creation_input_tokens: int
    cache_read_input_tokens: int

    def as_dict(self) -> dict:
        return {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
        }


def _without_cache_control(block):
    if isinstance(block, dict) and "cache_control" in block:
        return {key: value for key, value in block.items() if key != "cache_control"}
    return block


def prompt_blocks(body: dict) -> list[tuple[object, bool]]:
    """The request as (block, is_breakpoint) in the order the API reads it: tools, system, messages."""
    blocks: list[tuple[object, bool]] = []
    for tool in body.get("tools") or []:
        blocks.append((("tool", _without_cache_control(tool)), bool(tool.get("cache_control"))))
    system = body.get("system")
    if isinstance(system, str):
        blocks.append((("system", system), False))
    else:
        for block in system or []:
            blocks.append((("system", _without_cache_control(block)), bool(block.get("cache_control"))))
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for block in content or []:
            marked = isinstance(block, dict) and bool(block.get("cache_control"))
            blocks.append(((message.get("role"), _without_cache_control(block)), marked))
    if body.get("cache_control") and blocks:  # automatic caching: the last block is a breakpoint
        blocks[-1] = (blocks[-1][0], True)
    return blocks


class PromptCache:
    """Prefix hash → expiry, per model; thread-safe. `clock` is injectable for tests."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._entries: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    def usage(self, body: dict) -> Usage:
        """Look the request's prefixes up, write its breakpoints, and return its honest usage."""
        model = body.get("model") or ""
        blocks = prompt_blocks(body)
        breakpoints = [index for index, (_, marked) in enumerate(blocks) if marked]
        if len(breakpoints) > MAX_BREAKPOINTS:
            raise TooManyBreakpoints(f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided.")
        hashes, cumulative = [], []
        digest, tokens = hashlib.sha256(), 0
        for block, _ in blocks:
            encoded = json.dumps(block, sort_keys=True, separators=(",", ":"))
            digest.update(encoded.encode())
            digest.update(b"\x1e")
            hashes.append(digest.copy().hexdigest())
            tokens += approx_tokens(encoded)
            cumulative.append(tokens)
        total = tokens
        minimum = min_cacheable_tokens(model)
        now = self.clock()

        with self._lock:
            read_end = -1  # index of the last block of the longest prefix read
            for breakpoint in breakpoints:
                for index in range(breakpoint, max(-1, breakpoint - LOOKBACK_BLOCKS - 1), -1):
                    if index <= read_end:
                        break
                    expires = self._entries.get((model, hashes[index]))
                    if expires is not None and expires > now and cumulative[index] >= minimum:
                        read_end = index
                        break
            if read_end >= 0:
                self._entries[(model, hashes[read_end])] = now + TTL_SECONDS
            write_end = read_end
            for breakpoint in breakpoints:
                if breakpoint > read_end and cumulative[breakpoint] >= minimum:
                    self._entries[(model, hashes[breakpoint])] = now + TTL_SECONDS
                    write_end = breakpoint
            if len(self._entries) > 100_000:
                self._entries = {key: expiry for key, expiry in self._entries.items() if expiry > now}

        read = cumulative[read_end] if read_end >= 0 else 0
        written = (cumulative[write_end] if write_end >= 0 else 0) - read
        return Usage(
            input_tokens=total - read - written, cache_creation_input_tokens=written, cache_read_input_tokens=read
        )

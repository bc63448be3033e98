"""Run Ruby's own Psych / JSON over many inputs in one process (the reference for our loaders).

Values come back in a tagged JSON form so Ruby-only types survive: Symbols, NaN and
Infinity, Integer keys, exact Float bits.  Messages come back worded as Puppet words them
(``Unable to parse ...``), so tests compare our ``fatal.message`` to them verbatim.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import subprocess
from typing import Any

import pytest

from hiera_ls.puppet.values import CompositeKey, RubySymbol
from hiera_ls.source.psych_scalars import RubyObject

_ENCODE = r"""
def enc(v)
  case v
  when nil then ['nil']
  when true then ['true']
  when false then ['false']
  when Integer then ['int', v.to_s]
  when Float then ['float', [v].pack('G').unpack1('H*')]
  when String then ['str', v.dup.force_encoding('UTF-8').scrub]
  when Symbol then ['sym', v.to_s]
  when Array then ['list', v.map { |x| enc(x) }]
  when Hash then ['map', v.map { |k, x| [enc(k), enc(x)] }]
  else ['obj', v.class.name]
  end
end
"""

PSYCH_SCRIPT = (
    _ENCODE
    + r"""
require 'psych'
require 'json'
docs = JSON.parse(STDIN.read)
out = docs.map do |text|
  begin
    v = Psych.safe_load(text, permitted_classes: [Symbol], aliases: true, filename: 'f.yaml')
    { 'ok' => enc(v) }
  rescue Psych::DisallowedClass => e
    { 'error' => "Unable to parse (f.yaml): #{e.message}" }
  rescue StandardError, Psych::Exception => e
    { 'error' => "Unable to parse #{e.message.lines.first.chomp}" }
  end
end
puts JSON.generate(out, max_nesting: false)
"""
)

JSON_SCRIPT = (
    _ENCODE
    + r"""
require 'json'
docs = JSON.parse(STDIN.read)
out = docs.map do |text|
  begin
    { 'ok' => enc(JSON.parse(text)) }
  rescue JSON::ParserError => e
    { 'error' => "Unable to parse (x.json): #{e.message}" }
  end
end
puts JSON.generate(out, max_nesting: false)
"""
)


def require_ruby() -> str:
    ruby = shutil.which("ruby")
    if ruby is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but `ruby` is not installed", pytrace=False)
        pytest.skip("`ruby` is not installed")
    return ruby


def run(script: str, docs: list[str]) -> list[dict[str, Any]]:
    ruby = require_ruby()
    done = subprocess.run(
        [ruby, "-e", script],
        input=json.dumps(docs),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def encode(value: object) -> list[Any]:
    """Our value in the same tagged form as the Ruby side's ``enc``."""
    if value is None:
        return ["nil"]
    if value is True:
        return ["true"]
    if value is False:
        return ["false"]
    if isinstance(value, int):
        return ["int", str(value)]
    if isinstance(value, float):
        return [
            "float",
            struct.pack(">d", value).hex() if not math.isnan(value) else "7ff8000000000000",
        ]
    if isinstance(value, str):
        return ["str", value.encode("utf-8", "replace").decode("utf-8")]
    if isinstance(value, RubySymbol):
        return ["sym", value.name]
    if isinstance(value, list):
        return ["list", [encode(v) for v in value]]
    if isinstance(value, dict):
        return [
            "map",
            [
                [encode(k.value if isinstance(k, CompositeKey) else k), encode(v)]
                for k, v in value.items()
            ],
        ]
    if isinstance(value, RubyObject):
        return ["obj", value.class_name]
    return ["obj", type(value).__name__]


def normalise_nan(tagged: Any) -> Any:
    """Ruby's NaN bits vary with sign; any NaN equals any NaN here."""
    if isinstance(tagged, list):
        if len(tagged) == 2 and tagged[0] == "float" and isinstance(tagged[1], str):
            bits = int(tagged[1], 16)
            if (bits >> 52) & 0x7FF == 0x7FF and bits & ((1 << 52) - 1):
                return ["float", "nan"]
        return [normalise_nan(x) for x in tagged]
    return tagged

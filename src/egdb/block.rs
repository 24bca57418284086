//! The block codec of the table files: a run of value symbols (2-bit win/draw/loss codes or 8-bit
//! distances) coded as one small byte string, so that a probe decodes one block and nothing else.
//!
//! A block starts with a mode byte:
//! - [`RAW`]: the symbols packed at the file's width (four 2-bit symbols a byte, low bits first;
//!   one byte per 8-bit symbol);
//! - [`RUNS`]: runs of equal symbols. A 2-bit run is one byte `value | more << 2 | low << 3`
//!   (`low` the 5 low bits of `length - 1`), followed, when `more`, by the rest of `length - 1`
//!   as a little-endian base-128 varint shifted right by 5; an 8-bit run is the value byte
//!   followed by `length - 1` as a varint;
//! - [`PACKED`] (8-bit symbols only): a byte `w` (1 to 7), then every symbol in `w` bits, low
//!   bits first: for blocks whose symbols are all small (the file ranks its symbols by
//!   frequency, see [`file`](super::file)).
//!
//! The encoder picks the shortest mode per block. Symbols marked as wildcards (the value
//! [`NOT_STORED`](super::NOT_STORED) when the caller allows it) extend whatever run they stand
//! in: they read back as an unspecified value, which is what makes tables whose capture
//! positions are left to the search compress well.
//!
//! Invariant: `decode_at(encode(s), width, i) == s[i]` for every non-wildcard `i < s.len()`,
//! and decoding never reads outside the block's bytes (a corrupted block is an error, not a
//! panic).

/// Mode byte of a block of packed symbols.
pub const RAW: u8 = 0;
/// Mode byte of a run-length coded block.
pub const RUNS: u8 = 1;
/// Mode byte of a block of 8-bit symbols packed in fewer bits.
pub const PACKED: u8 = 2;

/// Symbol width: 2 bits (win/draw/loss codes) or 8 bits (distances).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Width {
    /// Four symbols a byte, values 0..=3.
    Two,
    /// One symbol a byte.
    Eight,
}

impl Width {
    /// Bits a symbol.
    pub const fn bits(self) -> u32 {
        match self {
            Width::Two => 2,
            Width::Eight => 8,
        }
    }
}

/// A block that does not decode (its bytes were damaged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadBlock(pub &'static str);

/// Codes `symbols` as one block. `wildcard`: a symbol value that may read back as anything.
pub fn encode(symbols: &[u8], width: Width, wildcard: Option<u8>, out: &mut Vec<u8>) {
    let start = out.len();
    // Runs, the wildcards absorbed: a wildcard continues the current run; leading wildcards
    // take the first real value.
    let first = symbols
        .iter()
        .copied()
        .find(|&s| Some(s) != wildcard)
        .unwrap_or(0);
    out.push(RUNS);
    let mut cur = first;
    let mut len: u64 = 0;
    for &s in symbols {
        if s == cur || Some(s) == wildcard {
            len += 1;
        } else {
            push_run(out, width, cur, len);
            cur = s;
            len = 1;
        }
    }
    if len > 0 {
        push_run(out, width, cur, len);
    }
    let raw_len = 1 + (symbols.len() * width.bits() as usize).div_ceil(8);
    // Packed: as many bits as the largest symbol needs (wildcards written as `first`).
    let bits = if width == Width::Eight {
        let max = symbols
            .iter()
            .map(|&s| if Some(s) == wildcard { first } else { s })
            .max()
            .unwrap_or(0);
        (8 - max.leading_zeros()).max(1)
    } else {
        8
    };
    let packed_len = 2 + (symbols.len() * bits as usize).div_ceil(8);
    if bits < 8 && packed_len < raw_len.min(out.len() - start) {
        out.truncate(start);
        out.push(PACKED);
        out.push(bits as u8);
        let mut acc = 0u64;
        let mut n = 0;
        for &s in symbols {
            let s = if Some(s) == wildcard { first } else { s };
            acc |= (s as u64) << n;
            n += bits;
            while n >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                n -= 8;
            }
        }
        if n > 0 {
            out.push(acc as u8);
        }
    } else if out.len() - start > raw_len {
        out.truncate(start);
        out.push(RAW);
        match width {
            Width::Eight => out.extend(
                symbols
                    .iter()
                    .map(|&s| if Some(s) == wildcard { first } else { s }),
            ),
            Width::Two => {
                for chunk in symbols.chunks(4) {
                    let mut b = 0u8;
                    for (i, &s) in chunk.iter().enumerate() {
                        let s = if Some(s) == wildcard { first } else { s };
                        b |= (s & 3) << (2 * i);
                    }
                    out.push(b);
                }
            }
        }
    }
}

fn push_run(out: &mut Vec<u8>, width: Width, value: u8, len: u64) {
    debug_assert!(len > 0);
    let n = len - 1;
    match width {
        Width::Two => {
            let more = n >= 32;
            out.push((value & 3) | (more as u8) << 2 | ((n & 31) as u8) << 3);
            if more {
                push_varint(out, n >> 5);
            }
        }
        Width::Eight => {
            out.push(value);
            push_varint(out, n);
        }
    }
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, BadBlock> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *bytes
            .get(*pos)
            .ok_or(BadBlock("a run length runs past the block"))?;
        *pos += 1;
        if shift > 56 {
            return Err(BadBlock("a run length is too long"));
        }
        v |= ((b & 0x7f) as u64) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
        shift += 7;
    }
}

/// The symbol at `index` of a block of `len` symbols.
pub fn decode_at(block: &[u8], width: Width, len: usize, index: usize) -> Result<u8, BadBlock> {
    if index >= len {
        return Err(BadBlock("index past the block"));
    }
    let (&mode, body) = block.split_first().ok_or(BadBlock("empty block"))?;
    match mode {
        RAW => match width {
            Width::Eight => body
                .get(index)
                .copied()
                .ok_or(BadBlock("raw block too short")),
            Width::Two => body
                .get(index / 4)
                .map(|b| (b >> (2 * (index % 4))) & 3)
                .ok_or(BadBlock("raw block too short")),
        },
        PACKED => {
            let (&w, bits) = body.split_first().ok_or(BadBlock("empty packed block"))?;
            if !(1..8).contains(&w) || width != Width::Eight {
                return Err(BadBlock("bad packed width"));
            }
            let at = index * w as usize;
            let lo = *bits.get(at / 8).ok_or(BadBlock("packed block too short"))? as u16;
            let hi = bits.get(at / 8 + 1).copied().unwrap_or(0) as u16;
            Ok((((lo | hi << 8) >> (at % 8)) & ((1 << w) - 1)) as u8)
        }
        RUNS => {
            let mut pos = 0;
            let mut seen: u64 = 0;
            let want = index as u64;
            loop {
                let (value, len) = read_run(body, width, &mut pos)?;
                seen += len;
                if seen > want {
                    return Ok(value);
                }
            }
        }
        _ => Err(BadBlock("unknown block mode")),
    }
}

fn read_run(body: &[u8], width: Width, pos: &mut usize) -> Result<(u8, u64), BadBlock> {
    let b = *body
        .get(*pos)
        .ok_or(BadBlock("runs end before the block's last symbol"))?;
    *pos += 1;
    match width {
        Width::Two => {
            let mut n = (b >> 3) as u64;
            if b & 4 != 0 {
                n |= read_varint(body, pos)? << 5;
            }
            Ok((b & 3, run_len(n)?))
        }
        Width::Eight => Ok((b, run_len(read_varint(body, pos)?)?)),
    }
}

/// A run's length from its stored value (one less): a damaged block may store any value.
fn run_len(stored: u64) -> Result<u64, BadBlock> {
    stored
        .checked_add(1)
        .ok_or(BadBlock("a run length is too long"))
}

/// Every symbol of a block of `len` symbols, appended to `out`.
pub fn decode_all(
    block: &[u8],
    width: Width,
    len: usize,
    out: &mut Vec<u8>,
) -> Result<(), BadBlock> {
    let (&mode, body) = block.split_first().ok_or(BadBlock("empty block"))?;
    match mode {
        RAW => match width {
            Width::Eight => {
                let b = body.get(..len).ok_or(BadBlock("raw block too short"))?;
                out.extend_from_slice(b);
            }
            Width::Two => {
                let b = body
                    .get(..len.div_ceil(4))
                    .ok_or(BadBlock("raw block too short"))?;
                out.extend((0..len).map(|i| (b[i / 4] >> (2 * (i % 4))) & 3));
            }
        },
        PACKED => {
            if body.len() < 1 + (len * body.first().copied().unwrap_or(0) as usize).div_ceil(8) {
                return Err(BadBlock("packed block too short"));
            }
            for i in 0..len {
                out.push(decode_at(block, width, len, i)?);
            }
        }
        RUNS => {
            let mut pos = 0;
            let mut left = len as u64;
            while left > 0 {
                let (value, n) = read_run(body, width, &mut pos)?;
                if n > left {
                    return Err(BadBlock("runs overflow the block"));
                }
                out.extend(std::iter::repeat_n(value, n as usize));
                left -= n;
            }
        }
        _ => return Err(BadBlock("unknown block mode")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(symbols: &[u8], width: Width, wildcard: Option<u8>) -> usize {
        let mut b = Vec::new();
        encode(symbols, width, wildcard, &mut b);
        let mut all = Vec::new();
        decode_all(&b, width, symbols.len(), &mut all).unwrap();
        for (i, &s) in symbols.iter().enumerate() {
            if Some(s) != wildcard {
                assert_eq!(decode_at(&b, width, symbols.len(), i).unwrap(), s, "at {i}");
                assert_eq!(all[i], s);
            }
        }
        b.len()
    }

    #[test]
    fn codes_round_trip() {
        let noisy: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 5 % 4) as u8).collect();
        assert!(round_trip(&noisy, Width::Two, None) <= 251);
        let flat = vec![2u8; 4096];
        assert!(round_trip(&flat, Width::Two, None) <= 4);
        let mut holes = vec![3u8; 3000];
        for i in (0..3000).step_by(3) {
            holes[i] = 0;
        }
        assert!(round_trip(&holes, Width::Two, Some(0)) <= 4);
        let dist: Vec<u8> = (0..700u32).map(|i| (i / 50) as u8).collect();
        assert!(round_trip(&dist, Width::Eight, None) < 50);
        let small: Vec<u8> = (0..512u32).map(|i| (i * 7 % 5) as u8).collect();
        assert_eq!(round_trip(&small, Width::Eight, None), 2 + 512 * 3 / 8);
        let mut holes: Vec<u8> = (0..301u32).map(|i| (i % 4) as u8).collect();
        holes[7] = 200;
        round_trip(&holes, Width::Eight, Some(200));
        let bytes: Vec<u8> = (0..300u32).map(|i| (i * 37) as u8).collect();
        assert_eq!(round_trip(&bytes, Width::Eight, None), 301);
        round_trip(&[0, 0, 0], Width::Two, Some(0));
        round_trip(&[1], Width::Two, None);
    }

    #[test]
    fn damage_is_an_error() {
        let mut b = Vec::new();
        encode(&[1u8; 100], Width::Two, None, &mut b);
        assert!(decode_at(&b[..1], Width::Two, 100, 50).is_err());
        assert!(decode_at(&[7], Width::Two, 100, 0).is_err());
        assert!(decode_at(&[], Width::Two, 100, 0).is_err());
        assert!(decode_all(&[RUNS, 0x80 | 4, 0x80], Width::Two, 100, &mut Vec::new()).is_err());
        // A run whose stored length is u64::MAX (31 in its first byte, the rest in a varint):
        // an error, not an overflow.
        let huge = [
            RUNS, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x07,
        ];
        assert!(decode_all(&huge, Width::Two, 100, &mut Vec::new()).is_err());
        assert!(decode_at(&huge, Width::Two, 100, 5).is_err());
    }
}

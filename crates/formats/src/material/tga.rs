//! TGA (Truevision's Targa), the picture format of Doom 3 and many MD5 models: read here by hand,
//! as it is small. (The crates that read it bring a graphics framework or every image format with
//! them; this program needs two kinds of TGA, a few dozen lines.)
//!
//! An 18-byte header, then an id field, a colour map (skipped: true-colour pictures do not use
//! one), then the pixels, blue, green, red (and alpha), a byte each:
//!
//! | byte | what |
//! |---|---|
//! | 0 | the id field's length |
//! | 1 | colour-map type (0 none, 1 present) |
//! | 2 | image type: 2 true colour, 10 true colour run-length encoded |
//! | 3-7 | the colour map: first entry, entries (16-bit), bits per entry |
//! | 12-15 | width, height (16-bit, little-endian) |
//! | 16 | bits per pixel: 24 or 32 |
//! | 17 | descriptor: bit 5 set, the first row is the top; else the bottom (bit 4: right to left) |
//!
//! Run-length data is packets: a byte whose top bit says a run (the next pixel, `1 + low 7 bits`
//! times) or raw (`1 + low 7 bits` pixels follow). A file cut short, or whose packets say more
//! pixels than the picture holds, is an error in words; so are the other image types (colour-mapped,
//! grey, 16-bit), which this program does not read.

/// The header's fields this reader uses.
struct Header {
    /// Where the pixels start: after the header, the id field and any colour map.
    start: usize,
    run_length: bool,
    width: u32,
    height: u32,
    /// Bytes a pixel: 3 or 4.
    bytes: usize,
    top_first: bool,
    right_to_left: bool,
}

fn header(data: &[u8]) -> Result<Header, String> {
    let Some(h) = data.get(..18) else { return Err("not a TGA: shorter than its 18-byte header".into()) };
    let run_length = match h[2] {
        2 => false,
        10 => true,
        kind => {
            return Err(format!(
                "a TGA of image type {kind}; this program reads true colour (2) and its run-length form (10)"
            ));
        }
    };
    let bytes = match h[16] {
        24 => 3,
        32 => 4,
        bits => return Err(format!("a TGA of {bits} bits a pixel; this program reads 24 and 32")),
    };
    let word = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
    // A colour map a true-colour picture does not use: skipped, entries of bits rounded up to bytes.
    let map = if h[1] == 0 { 0 } else { word(5) as usize * (h[7] as usize).div_ceil(8) };
    Ok(Header {
        start: 18 + h[0] as usize + map,
        run_length,
        width: word(12) as u32,
        height: word(14) as u32,
        bytes,
        top_first: h[17] & 0x20 != 0,
        right_to_left: h[17] & 0x10 != 0,
    })
}

/// A TGA's width and height, from its header alone (and its kind, which must be one this reads).
pub fn size(data: &[u8]) -> Result<(u32, u32), String> {
    let h = header(data)?;
    Ok((h.width, h.height))
}

/// A TGA's pixels as RGBA, a byte each, row by row from the top.
pub fn decode(data: &[u8]) -> Result<Vec<u8>, String> {
    let h = header(data)?;
    let count = h.width as usize * h.height as usize;
    let body = data.get(h.start..).ok_or("its TGA data is cut short")?;
    let stored = match h.run_length {
        false => body.get(..count * h.bytes).ok_or("its TGA data is cut short")?.to_vec(),
        true => unpack(body, count, h.bytes)?,
    };
    let (w, rows) = (h.width as usize, h.height as usize);
    let mut rgba = vec![0; count * 4];
    for (i, pixel) in stored.chunks_exact(h.bytes).enumerate() {
        let (row, column) = (i / w, i % w);
        let y = if h.top_first { row } else { rows - 1 - row };
        let x = if h.right_to_left { w - 1 - column } else { column };
        let alpha = if h.bytes == 4 { pixel[3] } else { 255 };
        let at = (y * w + x) * 4;
        rgba[at..at + 4].copy_from_slice(&[pixel[2], pixel[1], pixel[0], alpha]);
    }
    Ok(rgba)
}

/// Run-length packets to `count` pixels of `bytes` each, stored order.
fn unpack(mut body: &[u8], count: usize, bytes: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(count * bytes);
    while out.len() < count * bytes {
        let (&packet, rest) = body.split_first().ok_or("its TGA data is cut short")?;
        let n = 1 + (packet & 0x7F) as usize;
        if out.len() + n * bytes > count * bytes {
            return Err("its TGA packets hold more pixels than the picture".into());
        }
        let take = if packet & 0x80 != 0 { bytes } else { n * bytes };
        let pixels = rest.get(..take).ok_or("its TGA data is cut short")?;
        match packet & 0x80 != 0 {
            true => (0..n).for_each(|_| out.extend_from_slice(pixels)),
            false => out.extend_from_slice(pixels),
        }
        body = &rest[take..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A TGA header: image type `kind`, `bits` a pixel, `descriptor`, and a 2-byte id field.
    fn head(kind: u8, width: u16, height: u16, bits: u8, descriptor: u8) -> Vec<u8> {
        let mut h = vec![2, 0, kind, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        h.extend(width.to_le_bytes());
        h.extend(height.to_le_bytes());
        h.extend([bits, descriptor, b'i', b'd']);
        h
    }

    // A 2 x 2 picture, top row red then green, bottom row blue then white (half transparent).
    const TOP: [[u8; 4]; 2] = [[255, 0, 0, 255], [0, 255, 0, 255]];
    const BOTTOM: [[u8; 4]; 2] = [[0, 0, 255, 255], [255, 255, 255, 128]];

    fn bgra(rgba: [u8; 4], bytes: usize) -> Vec<u8> {
        [rgba[2], rgba[1], rgba[0], rgba[3]][..bytes].to_vec()
    }

    fn expected(bytes: usize) -> Vec<u8> {
        let alpha = |p: [u8; 4]| if bytes == 3 { [p[0], p[1], p[2], 255] } else { p };
        TOP.iter().chain(&BOTTOM).flat_map(|&p| alpha(p)).collect()
    }

    #[test]
    fn uncompressed_tgas_of_24_and_32_bits_read_from_either_origin() {
        for bytes in [3, 4] {
            for top_first in [true, false] {
                let mut file = head(2, 2, 2, 8 * bytes as u8, if top_first { 0x20 } else { 0 });
                let rows = if top_first { [TOP, BOTTOM] } else { [BOTTOM, TOP] };
                rows.iter().flatten().for_each(|&p| file.extend(bgra(p, bytes)));
                assert_eq!(size(&file), Ok((2, 2)));
                assert_eq!(decode(&file), Ok(expected(bytes)), "{bytes} bytes, top first {top_first}");
            }
        }
    }

    #[test]
    fn run_length_tgas_read_runs_and_raw_packets() {
        for bytes in [3, 4] {
            // Bottom first: each row a raw packet of two pixels; then a run, 3 x 1 of red.
            let mut file = head(10, 2, 2, 8 * bytes as u8, 0);
            file.push(0x01); // raw, 2 pixels: the bottom row
            BOTTOM.iter().for_each(|&p| file.extend(bgra(p, bytes)));
            file.push(0x01);
            TOP.iter().for_each(|&p| file.extend(bgra(p, bytes)));
            assert_eq!(decode(&file), Ok(expected(bytes)));
            let mut red = head(10, 3, 1, 8 * bytes as u8, 0x20);
            red.push(0x82); // a run of 3
            red.extend(bgra(TOP[0], bytes));
            assert_eq!(decode(&red), Ok(TOP[0].iter().copied().cycle().take(12).collect::<Vec<u8>>()));
        }
    }

    #[test]
    fn damaged_and_unread_tgas_are_errors_in_words() {
        let mut cut = head(2, 2, 2, 24, 0);
        cut.extend([0; 11]);
        assert_eq!(decode(&cut), Err("its TGA data is cut short".into()));
        let mut long_run = head(10, 2, 1, 24, 0);
        long_run.extend([0x85, 1, 2, 3]);
        assert_eq!(decode(&long_run), Err("its TGA packets hold more pixels than the picture".into()));
        assert!(size(&head(1, 2, 2, 8, 0)).unwrap_err().contains("image type 1"));
        assert!(size(&head(2, 2, 2, 16, 0)).unwrap_err().contains("16 bits"));
        assert!(size(&[0; 5]).unwrap_err().contains("18-byte header"));
    }
}

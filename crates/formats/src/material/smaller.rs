//! A picture made smaller as its rows arrive: `halvings` times half its width and height, each new
//! pixel the average of the block of 2^halvings x 2^halvings pixels it covers (of the whole side,
//! where a side is shorter than the block; the last columns and rows that fill no block are left).
//!
//! The model's textures are drawn within a budget of pixels (`pixels.rs`: `fit`), so a large
//! picture among many is drawn smaller. Made smaller row by row, it never needs its full size in
//! memory: [`Smaller`] holds one row of sums, and the PNG decoder hands it one row at a time
//! (`pixels.rs`: `decode_smaller`). A block is averaged once, rounded once, so halving three
//! times is one 8 x 8 average, not three 2 x 2 averages each rounded.

use super::image::Pixels;

/// The picture being made smaller: the sums of the blocks of the current row of blocks, and the
/// rows of new pixels finished so far.
pub struct Smaller {
    /// The height of the picture coming in, in pixels.
    height: usize,
    /// The block each new pixel averages, across and down.
    block: (usize, usize),
    /// The new picture's width and height.
    out: (usize, usize),
    /// Red, green, blue, alpha summed over each block of the row of blocks being read.
    sums: Vec<u64>,
    /// Rows of the picture taken so far.
    rows: usize,
    /// The new picture's pixels, RGBA, row by row from the top.
    rgba: Vec<u8>,
}

impl Smaller {
    /// Ready for the rows of a `width` x `height` picture, to be halved `halvings` times.
    pub fn new(width: u32, height: u32, halvings: u32) -> Smaller {
        // A side of n pixels: blocks of 2^halvings (n if shorter), as many as fill it, at least 1.
        let side = |n: u32| {
            let block = (1u64 << halvings.min(32)).min(n.max(1) as u64) as usize;
            (block, (n as usize / block).max(1))
        };
        let ((block_w, out_w), (block_h, out_h)) = (side(width), side(height));
        Smaller {
            height: height as usize,
            block: (block_w, block_h),
            out: (out_w, out_h),
            sums: vec![0; out_w * 4],
            rows: 0,
            rgba: Vec::with_capacity(out_w * out_h * 4),
        }
    }

    /// The next row of the picture, RGBA, `width` pixels.
    pub fn row(&mut self, rgba: &[u8]) {
        let y = self.rows;
        self.rows += 1;
        let ((block_w, block_h), (out_w, out_h)) = (self.block, self.out);
        if y >= block_h * out_h {
            return; // past the last whole row of blocks
        }
        if (block_w, block_h) == (1, 1) {
            self.rgba.extend_from_slice(&rgba[..out_w * 4]);
            return;
        }
        // Plain loops over indices: a debug build (the tests') runs them several times faster than
        // chained iterators, whose every step is a call there.
        let (sums, mut at) = (&mut self.sums, 0);
        for block in 0..out_w {
            let (mut r, mut g, mut b, mut a) = (0u64, 0u64, 0u64, 0u64);
            let end = at + block_w * 4;
            while at < end {
                r += rgba[at] as u64;
                g += rgba[at + 1] as u64;
                b += rgba[at + 2] as u64;
                a += rgba[at + 3] as u64;
                at += 4;
            }
            sums[block * 4] += r;
            sums[block * 4 + 1] += g;
            sums[block * 4 + 2] += b;
            sums[block * 4 + 3] += a;
        }
        if (y + 1).is_multiple_of(block_h) {
            let n = (block_w * block_h) as u64;
            let mut i = 0;
            while i < sums.len() {
                self.rgba.push(((sums[i] + n / 2) / n) as u8);
                sums[i] = 0;
                i += 1;
            }
        }
    }

    /// The smaller picture, once every row has come; an error if fewer or more came than the
    /// picture's height.
    pub fn finish(self) -> Result<Pixels, String> {
        if self.rows != self.height {
            return Err("its data does not fill the picture its header describes".into());
        }
        let (width, height) = (self.out.0 as u32, self.out.1 as u32);
        Ok(Pixels { width, height, rgba: self.rgba })
    }
}

/// `pixels` halved `halvings` times (see the top of this file), from pixels already decoded; an
/// error if they are not the rows their width and height say.
pub fn smaller(pixels: &Pixels, halvings: u32) -> Result<Pixels, String> {
    let mut out = Smaller::new(pixels.width, pixels.height, halvings);
    let row_bytes = (pixels.width as usize * 4).max(1);
    if pixels.rgba.len() != row_bytes * pixels.height as usize {
        return Err("its data does not fill the picture its header describes".into());
    }
    for row in pixels.rgba.chunks_exact(row_bytes) {
        out.row(row);
    }
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_new_pixel_averages_its_block() {
        #[rustfmt::skip]
        let rgba = vec![
            0, 0, 0, 0,  4, 8, 12, 16,  100, 100, 100, 100,
            8, 8, 8, 8,  12, 16, 20, 24,  200, 200, 200, 200,
        ];
        // Halved once: one 2 x 2 block; the odd last column is left.
        let half = smaller(&Pixels { width: 3, height: 2, rgba }, 1).unwrap();
        assert_eq!((half.width, half.height), (1, 1));
        assert_eq!(half.rgba, [6, 8, 10, 12]);
        // A side of one pixel stays one pixel.
        let row = Pixels {
            width: 4,
            height: 1,
            rgba: [[10, 20, 30, 40]; 2].concat().into_iter().chain([50; 8]).collect(),
        };
        let half = smaller(&row, 1).unwrap();
        assert_eq!((half.width, half.height), (2, 1));
        assert_eq!(half.rgba, [10, 20, 30, 40, 50, 50, 50, 50]);
        // Halved twice at once: each pixel the mean of its 4 x 4 block, rounded once.
        let rgba: Vec<u8> = (0..8 * 4).flat_map(|i: u8| [i, 2 * i, 255, 1]).collect();
        let quarter = smaller(&Pixels { width: 8, height: 4, rgba }, 2).unwrap();
        assert_eq!((quarter.width, quarter.height), (2, 1));
        // The left block: columns 0 to 3 of rows 0 to 3, i = 8y + x, mean 13.5; the right 17.5.
        assert_eq!(quarter.rgba, [14, 27, 255, 1, 18, 35, 255, 1]);
        // Not halved: the same pixels.
        let same = Pixels { width: 1, height: 2, rgba: vec![1, 2, 3, 4, 5, 6, 7, 8] };
        assert_eq!(smaller(&same, 0).unwrap(), same);
    }

    #[test]
    fn rows_that_do_not_fill_the_picture_are_an_error() {
        let mut out = Smaller::new(2, 3, 1);
        out.row(&[0; 8]);
        out.row(&[0; 8]);
        assert!(out.finish().is_err(), "two rows of three");
        let short = Pixels { width: 2, height: 2, rgba: vec![0; 12] };
        assert!(smaller(&short, 1).is_err());
    }
}

//! The map as textures: terrain and search state composed per cell, and re-uploaded only where
//! cells change, so scrubbing a 1024×1024 run redraws the cells between two cursors rather than
//! the whole map. A map wider or taller than one texture may be (the GPU's limit, 8192 or 16384)
//! is cut into tiles; the image in memory stays whole.

use crate::app::palette;
use crate::app::run::Run;
use crate::map::Grid;
use crate::trace::NodeState;
use crate::world::CellNodes;
use eframe::egui::{self, Color32, ColorImage, TextureHandle, TextureOptions};
use std::sync::Arc;

/// Cursor moves over more events than this recolour the whole map (cheaper than collecting
/// that many touched cells one by one).
const PARTIAL_LIMIT: usize = 400_000;

/// Texture sampling: crisp cells when zoomed in, smooth when a big map is shrunk to fit.
const OPTIONS: TextureOptions = TextureOptions {
    magnification: egui::TextureFilter::Nearest,
    minification: egui::TextureFilter::Linear,
    wrap_mode: egui::TextureWrapMode::ClampToEdge,
    mipmap_mode: None,
};

/// What the texture currently shows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shown {
    map_revision: u64,
    run_serial: u64,
    diff_serial: Option<u64>,
    cursor: usize,
    other_cursor: usize,
    /// World changes (of the run's own timeline) that have happened at the cursor.
    world: usize,
    /// Node of the first cell (a voxel world's layer); `usize::MAX` when cells map to nodes
    /// through a table (a navmesh's polygons).
    base: usize,
}

/// One view's map texture.
pub struct MapTexture {
    lut: palette::CellTable,
    /// The colours before the run's first world change (inconsistent drawn as open).
    lut_first: palette::CellTable,
    /// The texture's pixels. Shared with egui while an upload is pending and written in place
    /// afterwards: a fresh 4 MB image per full recolour cost an allocation, page faults and a
    /// copy every frame.
    image: Arc<ColorImage>,
    size: [usize; 2],
    /// One texture per tile, with the cells it covers: `[x0, y0, x1, y1)`.
    tex: Vec<(TextureHandle, [usize; 4])>,
    shown: Option<Shown>,
    /// Cells recoloured by the last sync (for frame-time logs).
    pub last_recoloured: usize,
    /// The map before the run's later world changes: (map revision, run serial, world
    /// version, tiles), kept while the cursor stays before a change.
    past: Option<(u64, u64, usize, Vec<u8>)>,
}

impl Default for MapTexture {
    fn default() -> Self {
        MapTexture {
            lut: palette::CellTable::new(),
            lut_first: palette::CellTable::before_change(),
            image: Arc::new(ColorImage::new([0, 0], Vec::new())),
            size: [0, 0],
            tex: Vec::new(),
            shown: None,
            last_recoloured: 0,
            past: None,
        }
    }
}

impl MapTexture {
    /// The textures, once synced, each with the cells `[x0, y0, x1, y1)` it covers.
    pub fn tiles(&self) -> impl Iterator<Item = (egui::TextureId, [usize; 4])> + '_ {
        self.tex.iter().map(|(t, r)| (t.id(), *r))
    }

    /// The colour of cell (x, y) as last drawn.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Color32> {
        let (x, y) = (x as usize, y as usize);
        (x < self.size[0])
            .then(|| self.image.pixels.get(y * self.size[0] + x).copied())
            .flatten()
    }

    /// Brings the texture up to date with the map and the run's cursor. With `diff`, cells are
    /// coloured by which of the two runs expanded them; its flag is true when this run is the
    /// first of the pair, so each run keeps one colour in both views (docs/ui.md: blue, orange).
    /// Cell i of `grid` shows the node `nodes` names: `base + i` (a voxel world's layer starts
    /// at its base), or a table's entry (a navmesh's polygon).
    #[allow(clippy::too_many_arguments)]
    pub fn sync(
        &mut self,
        ctx: &egui::Context,
        grid: &Grid,
        nodes: CellNodes,
        map_revision: u64,
        run: (&mut Run, u64),
        diff: Option<(&mut Run, u64, bool)>,
    ) {
        let (base, table) = match nodes {
            CellNodes::From(b) => (b, None),
            CellNodes::Map(t) => (usize::MAX, Some(t)),
        };
        self.sync_nodes(ctx, grid, (base, table), map_revision, run, diff)
    }

    #[allow(clippy::too_many_arguments)]
    fn sync_nodes(
        &mut self,
        ctx: &egui::Context,
        grid: &Grid,
        (base, table): (usize, Option<&[u32]>),
        map_revision: u64,
        run: (&mut Run, u64),
        mut diff: Option<(&mut Run, u64, bool)>,
    ) {
        let (run, run_serial) = run;
        let cursor = run.event_cursor();
        let (diff_serial, other_cursor) = match diff.as_mut() {
            Some((r, s, _)) => (Some(*s), r.event_cursor()),
            None => (None, 0),
        };
        // Behind a world change the run repaired across, the map is drawn as it was then.
        let world = if diff.is_none() {
            run.world_at(cursor)
        } else {
            run.changes.len()
        };
        let now = Shown {
            map_revision,
            run_serial,
            diff_serial,
            cursor,
            other_cursor,
            world,
            base,
        };
        if self.shown == Some(now) && !self.tex.is_empty() {
            self.last_recoloured = 0;
            return;
        }
        let size = [grid.width() as usize, grid.height() as usize];
        let current = (map_revision, run_serial, world);
        if world == run.changes.len() {
            self.past = None;
        } else if self
            .past
            .as_ref()
            .is_none_or(|p| (p.0, p.1, p.2) != current)
        {
            self.past = Some((
                map_revision,
                run_serial,
                world,
                run.tiles_at(grid.tiles(), world),
            ));
        }
        // Taken out while drawing (the methods below borrow self), put back at the end.
        let past = self.past.take();
        let tiles: &[u8] = match &past {
            Some(p) => &p.3,
            None => grid.tiles(),
        };
        let same_world = self.shown.is_some_and(|s| {
            s.map_revision == map_revision
                && s.world == world
                && s.run_serial == run_serial
                && s.diff_serial.is_none()
                && diff_serial.is_none()
                && s.base == base
        }) && self.size == size
            // Events name polygons, not cells: a table's worlds recolour every cell.
            && table.is_none();
        let old_cursor = self.shown.map_or(0, |s| s.cursor);
        let (lo, hi) = (old_cursor.min(cursor), old_cursor.max(cursor));
        if same_world && hi - lo <= PARTIAL_LIMIT && !self.tex.is_empty() {
            self.recolour_events(tiles, run, (lo, hi, cursor), base, world == 0);
        } else {
            self.size = size;
            let image = Arc::make_mut(&mut self.image);
            if image.size != size {
                *image = ColorImage::filled(size, palette::FREE);
            }
            match diff {
                Some((other, _, this_first)) => {
                    let mine = run.rec.seek(cursor).clone();
                    let theirs = other.rec.seek(other_cursor);
                    for (i, p) in image.pixels.iter_mut().enumerate() {
                        let n = node_of(base, table, i);
                        let (a, b) = (state_of(&mine, n), state_of(theirs, n));
                        let (first, second) = if this_first { (a, b) } else { (b, a) };
                        *p = palette::diff(tiles[i], first, second);
                    }
                }
                None => {
                    let states = run.rec.seek(cursor);
                    // "To repair" only once the world has changed.
                    let lut = if world == 0 {
                        &self.lut_first
                    } else {
                        &self.lut
                    };
                    if base == 0 {
                        recolour_all(&mut image.pixels, tiles, states.packed(), lut);
                    } else {
                        // A layer's nodes need not start on a byte of the packed states.
                        for (i, p) in image.pixels.iter_mut().enumerate() {
                            let n = node_of(base, table, i);
                            *p = lut.get(tiles[i], state_of(states, n) as u8);
                        }
                    }
                }
            }
            self.last_recoloured = image.pixels.len();
            self.upload_all(ctx);
        }
        self.shown = Some(now);
        self.past = past;
    }

    /// Recolours the cells named by events `lo..hi` as they are at `cursor`, and uploads the
    /// blocks that hold them.
    fn recolour_events(
        &mut self,
        tiles: &[u8],
        run: &mut Run,
        (lo, hi, cursor): (usize, usize, usize),
        base: usize,
        first: bool,
    ) {
        let w = self.size[0];
        let n = self.image.pixels.len();
        let mut touched: Vec<usize> = Vec::with_capacity(hi - lo);
        for i in lo..hi {
            if let Some(e) = run.rec.get(i) {
                let c = (e.node as usize).wrapping_sub(base);
                if c < n {
                    touched.push(c);
                }
            }
        }
        self.last_recoloured = touched.len();
        if touched.is_empty() {
            return;
        }
        let states = run.rec.seek(cursor);
        let lut = if first { &self.lut_first } else { &self.lut };
        let pixels = &mut Arc::make_mut(&mut self.image).pixels;
        for &c in &touched {
            pixels[c] = lut.get(tiles[c], states.get(base + c) as u8);
        }
        for r in changed_blocks(self.size, &touched) {
            // A rectangle may cross tile edges: each tile takes its part.
            for (t, tile) in &mut self.tex {
                let [x0, y0] = [r[0].max(tile[0]), r[1].max(tile[1])];
                let [x1, y1] = [r[2].min(tile[2]), r[3].min(tile[3])];
                if x0 >= x1 || y0 >= y1 {
                    continue;
                }
                let sub =
                    ColorImage::new([x1 - x0, y1 - y0], sub_pixels(pixels, w, [x0, y0, x1, y1]));
                t.set_partial([x0 - tile[0], y0 - tile[1]], sub, OPTIONS);
            }
        }
    }

    /// Uploads the whole image: as one texture sharing the image when the map fits one, else
    /// tile by tile.
    fn upload_all(&mut self, ctx: &egui::Context) {
        let [w, h] = self.size;
        let side = tile_side(ctx.input(|i| i.max_texture_side));
        let rects = tile_rects(self.size, side);
        if self.tex.len() != rects.len() || self.tex.iter().zip(&rects).any(|(t, r)| t.1 != *r) {
            self.tex.clear();
        }
        for (i, r) in rects.into_iter().enumerate() {
            let image = if r == [0, 0, w, h] {
                self.image.clone()
            } else {
                let size = [r[2] - r[0], r[3] - r[1]];
                Arc::new(ColorImage::new(size, sub_pixels(&self.image.pixels, w, r)))
            };
            match self.tex.get_mut(i) {
                Some((t, _)) => t.set(image, OPTIONS),
                None => self
                    .tex
                    .push((ctx.load_texture(format!("map-{i}"), image, OPTIONS), r)),
            }
        }
    }
}

/// The node cell `i` shows: `base + i`, or the table's entry (`None`: no node, a blocked cell).
fn node_of(base: usize, table: Option<&[u32]>, i: usize) -> Option<usize> {
    match table {
        Some(t) => t.get(i).filter(|&&n| n != u32::MAX).map(|&n| n as usize),
        None => Some(base + i),
    }
}

/// The state of node `n` (unseen for none).
fn state_of(states: &crate::trace::NodeStates, n: Option<usize>) -> NodeState {
    n.map_or(NodeState::Unseen, |n| states.get(n))
}

/// Side of the tiles a map is cut into: at most 4096 (so tiles stay a modest upload) and within
/// the GPU's limit, in whole upload blocks.
fn tile_side(max_texture_side: usize) -> usize {
    (max_texture_side.min(4096) / BLOCK * BLOCK).max(BLOCK)
}

/// The tiles `[x0, y0, x1, y1)` covering a `size` image, row by row.
fn tile_rects(size: [usize; 2], side: usize) -> Vec<[usize; 4]> {
    let [w, h] = size;
    let mut rects = vec![];
    for y0 in (0..h).step_by(side) {
        for x0 in (0..w).step_by(side) {
            rects.push([x0, y0, (x0 + side).min(w), (y0 + side).min(h)]);
        }
    }
    rects
}

/// The pixels of rectangle `r` of an image `w` pixels wide, row by row.
fn sub_pixels(pixels: &[Color32], w: usize, r: [usize; 4]) -> Vec<Color32> {
    let [x0, y0, x1, y1] = r;
    let mut sub = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        sub.extend_from_slice(&pixels[y * w + x0..y * w + x1]);
    }
    sub
}

/// Side of the square blocks that partial uploads are made of.
const BLOCK: usize = 64;

/// The rectangles `[x0, y0, x1, y1)` to upload after `cells` (indices into a `size` image)
/// changed: the blocks holding a changed cell, joined along each row of blocks. Scrubbing a
/// Dijkstra run touches a ring around the start each frame; its bounding box was most of a
/// 1024 × 1024 map (up to 3.4 MB a frame), its blocks a tenth of that.
fn changed_blocks(size: [usize; 2], cells: &[usize]) -> Vec<[usize; 4]> {
    let [w, h] = size;
    let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
    let mut hit = vec![false; bw * bh];
    for &c in cells {
        hit[c / w / BLOCK * bw + c % w / BLOCK] = true;
    }
    let mut rects = vec![];
    for by in 0..bh {
        let row = &hit[by * bw..(by + 1) * bw];
        let mut bx = 0;
        while bx < bw {
            if !row[bx] {
                bx += 1;
                continue;
            }
            let start = bx;
            while bx < bw && row[bx] {
                bx += 1;
            }
            rects.push([
                start * BLOCK,
                by * BLOCK,
                (bx * BLOCK).min(w),
                ((by + 1) * BLOCK).min(h),
            ]);
        }
    }
    rects
}

/// Colours every cell from its tile and its state, four cells per byte of packed states: the
/// whole-map pass after a jump across the run, about three times faster than one cell at a time
/// through an iterator of codes.
fn recolour_all(pixels: &mut [Color32], tiles: &[u8], packed: &[u8], lut: &palette::CellTable) {
    let n = pixels.len().min(tiles.len()).min(packed.len() * 4);
    let (pixels, tiles) = (&mut pixels[..n], &tiles[..n]);
    let whole = n / 4 * 4;
    for ((p, t), &b) in pixels[..whole]
        .chunks_exact_mut(4)
        .zip(tiles[..whole].chunks_exact(4))
        .zip(packed)
    {
        p[0] = lut.get(t[0], b);
        p[1] = lut.get(t[1], b >> 2);
        p[2] = lut.get(t[2], b >> 4);
        p[3] = lut.get(t[3], b >> 6);
    }
    for i in whole..n {
        pixels[i] = lut.get(tiles[i], packed[i / 4] >> (2 * (i % 4)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{NodeState, NodeStates};

    /// Upload rectangles cover every changed cell, do not overlap, stay on the image, and on a
    /// thin ring cover far less than its bounding box.
    #[test]
    fn changed_blocks_cover_the_changes_and_little_else() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for size in [[1, 1], [63, 200], [64, 64], [300, 129], [1024, 1024]] {
            let n = size[0] * size[1];
            let cells: Vec<usize> = (0..rng.random_range(1..50))
                .map(|_| rng.random_range(0..n))
                .collect();
            let rects = changed_blocks(size, &cells);
            let mut covered = vec![0u8; n];
            for &[x0, y0, x1, y1] in &rects {
                assert!(
                    x0 < x1 && x1 <= size[0] && y0 < y1 && y1 <= size[1],
                    "{size:?}"
                );
                for y in y0..y1 {
                    for x in x0..x1 {
                        covered[y * size[0] + x] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|&c| c <= 1), "rectangles overlap");
            assert!(
                cells.iter().all(|&c| covered[c] == 1),
                "a change is left out"
            );
        }
        // A ring of radius 400 on a 1024 × 1024 map, one cell thick.
        let ring: Vec<usize> = (0..3600)
            .map(|i| {
                let a = i as f64 * std::f64::consts::TAU / 3600.0;
                let (x, y) = (512.0 + 400.0 * a.cos(), 512.0 + 400.0 * a.sin());
                y as usize * 1024 + x as usize
            })
            .collect();
        let area: usize = changed_blocks([1024, 1024], &ring)
            .iter()
            .map(|r| (r[2] - r[0]) * (r[3] - r[1]))
            .sum();
        assert!(area < 800 * 800 / 3, "ring uploads {area} pixels");
    }

    /// Tiles cover a map exactly once, none wider than the side, for maps past any GPU limit.
    #[test]
    fn tiles_cover_the_map_once() {
        assert_eq!(tile_side(16384), 4096);
        assert_eq!(tile_side(8000), 4096);
        assert_eq!(tile_side(2000), 1984);
        for size in [[1, 1], [16385, 2], [2, 17000], [4096, 4096], [5000, 300]] {
            let rects = tile_rects(size, 4096);
            let area: usize = rects.iter().map(|r| (r[2] - r[0]) * (r[3] - r[1])).sum();
            assert_eq!(area, size[0] * size[1], "{size:?}");
            assert!(rects
                .iter()
                .all(|r| r[2] - r[0] <= 4096 && r[3] - r[1] <= 4096));
        }
        assert_eq!(tile_rects([16385, 2], 4096).len(), 5);
    }

    /// The packed pass colours every cell as the table does one cell at a time, including a
    /// tail shorter than one byte of states.
    #[test]
    fn recolour_all_matches_cell_by_cell() {
        let n = 4 * 1000 + 3;
        let lut = palette::CellTable::new();
        let tiles: Vec<u8> = (0..n).map(|i| b".@TSW"[i * 7 % 5]).collect();
        let mut states = NodeStates::new(n);
        let all = [
            NodeState::Unseen,
            NodeState::Open,
            NodeState::Closed,
            NodeState::Inconsistent,
        ];
        for i in 0..n {
            states.set(i, all[i * 13 % 4]);
        }
        let mut pixels = vec![Color32::BLACK; n];
        recolour_all(&mut pixels, &tiles, states.packed(), &lut);
        let expected: Vec<Color32> = tiles
            .iter()
            .zip(states.codes())
            .map(|(&t, c)| lut.get(t, c))
            .collect();
        assert_eq!(pixels, expected);
    }
}

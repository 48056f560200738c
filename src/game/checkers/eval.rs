//! The static evaluation: features a checkers player would name, each with a weight for the
//! opening and one for the ending, blended by the number of pieces on the board (24: the
//! opening's weights; 0: the ending's). Weights are in hundredths of a man, by name
//! ([`NAMES`], [`DEFAULTS`]), so that a tuner can fit them and a file can set them.
//!
//! Every feature is counted for each side on the board seen from that side (Black's own view;
//! White's after [`flip`]: the board turned half round with the colours swapped), and the
//! evaluation is the side to move's sum less the opponent's, plus the features that depend on
//! who is to move. In Black's view, Black's men move down the diagram of
//! [`movegen`](super::movegen) (to higher bit indices) and its back rank is squares 1..=4.

use super::endgame::flip;
use super::movegen::{step, Board, DL, DR, UL, UR};
use super::Checkers;
use crate::game::{Game, Side};

/// The features, one weight each for the opening and for the ending (`NAME_open`,
/// `NAME_end`), in this order.
///
/// - `man`, `king`: material.
/// - `back`: men on the own back rank while the opponent has men to crown.
/// - `bridge`: men on both 1 and 3 (Black; 30 and 32 for White), the guard two men make.
/// - `triangle`: men on 2, 3 and 7 (Black; 26, 30, 31 for White): Oreo's triangle.
/// - `centre`: men on the eight central squares 10, 11, 14, 15, 18, 19, 22, 23.
/// - `king_centre`: kings there.
/// - `edge`: men on the side columns.
/// - `advance`: the rows the men have advanced, summed (the side's tempo count).
/// - `mobility`: the steps the side could make.
/// - `runaway`: men no enemy piece can stop before they crown, and `runaway_rows` their rows
///   still to go.
/// - `trapped_king`: kings without a step.
/// - `corner_king`: kings in a double corner (1 and 5, 28 and 32).
/// - `dog_hole`: the side's man held in a dog hole (Black's on 28 by White's piece on 32).
/// - `backed`: men that no enemy man could jump from in front (each square behind them
///   occupied or off the board).
/// - `hole`: empty squares with at least three of the side's pieces around them.
/// - `lead`: the lead in pieces (men and kings alike) times the pieces off the board: exchanges
///   favour the side ahead.
/// - `attacked`: for the side to move only, the opponent's pieces that could capture one of its
///   pieces if the opponent were to move (threats it must meet).
/// - `tempo`: for the side to move only, 1 (having the move).
/// - `balance`: the difference between the side's men on the left and right halves.
/// - `opposition`: for the side to move only, +1 if it has "the move" (an odd number of pieces,
///   of both colours, on its system: for Black the columns of squares 1..=4, that is the rows of
///   1..=4, 9..=12, 17..=20, 25..=28; for White the other four), else -1: in an ending with
///   pieces facing each other, the side with the move takes the opposition.
pub const FEATURES: [&str; 22] = [
    "man",
    "king",
    "back",
    "bridge",
    "triangle",
    "centre",
    "king_centre",
    "edge",
    "advance",
    "mobility",
    "runaway",
    "runaway_rows",
    "trapped_king",
    "corner_king",
    "dog_hole",
    "backed",
    "hole",
    "lead",
    "attacked",
    "tempo",
    "balance",
    "opposition",
];

const N: usize = FEATURES.len();

/// The weights' names: every feature's `_open` then every feature's `_end`.
pub static NAMES: [&str; 2 * N] = [
    "man_open",
    "king_open",
    "back_open",
    "bridge_open",
    "triangle_open",
    "centre_open",
    "king_centre_open",
    "edge_open",
    "advance_open",
    "mobility_open",
    "runaway_open",
    "runaway_rows_open",
    "trapped_king_open",
    "corner_king_open",
    "dog_hole_open",
    "backed_open",
    "hole_open",
    "lead_open",
    "attacked_open",
    "tempo_open",
    "balance_open",
    "opposition_open",
    "man_end",
    "king_end",
    "back_end",
    "bridge_end",
    "triangle_end",
    "centre_end",
    "king_centre_end",
    "edge_end",
    "advance_end",
    "mobility_end",
    "runaway_end",
    "runaway_rows_end",
    "trapped_king_end",
    "corner_king_end",
    "dog_hole_end",
    "backed_end",
    "hole_end",
    "lead_end",
    "attacked_end",
    "tempo_end",
    "balance_end",
    "opposition_end",
];

/// The weights as the evaluation reads them (indexed as [`NAMES`]).
pub type EvalWeights = [i32; 2 * N];

/// The weights compiled in (see the module's text for the scale).
#[rustfmt::skip]
pub const DEFAULTS: EvalWeights = [
    // opening
    100, 171, -4, 4, 6, -1, 54, -3, -12, 4, 75, -32, 42, -62, -23, -5, -5, 2, -35, -1, -2, 2,
    // ending
    126, 125, 6, 3, 42, 0, -14, -10, 7, 1, -10, 10, -12, 31, 34, 4, 5, -6, 3, 1, -1, 1,
];

/// The weights the tuner leaves alone: the unit (a man in the opening).
pub const FIXED: &[&str] = &["man_open"];

const BACK: u32 = 0x0000_000F;
const BRIDGE: u32 = (1 << 0) | (1 << 2);
const TRIANGLE: u32 = (1 << 1) | (1 << 2) | (1 << 6);
const CENTRE: u32 = (1 << 9) | (1 << 10) | (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 21) | (1 << 22);
/// Squares 5, 13, 21, 29 and 4, 12, 20, 28.
const EDGES: u32 = 0x1010_1010 | 0x0808_0808;
/// Squares 1, 5 and 28, 32.
const DOUBLE_CORNERS: u32 = (1 << 0) | (1 << 4) | (1 << 27) | (1 << 31);
/// Squares 1..=4, 9..=12, 17..=20, 25..=28: Black's system (see `opposition`).
const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// The left half of the board (columns 0..=3): the first two squares of each row.
const LEFT: u32 = 0x3333_3333;

/// `CONES[sq]`: the squares in front of a Black man on `sq` that it could reach on its way to
/// the crowning row (the triangle widening one square each way a row).
static CONES: [u32; 32] = cones();

const fn cones() -> [u32; 32] {
    let mut t = [0; 32];
    let mut sq = 0;
    while sq < 32 {
        let (mut cone, mut front) = (0u32, 1u32 << sq);
        let mut i = 0;
        while i < 8 {
            front = step(front, DL) | step(front, DR);
            cone |= front;
            i += 1;
        }
        t[sq] = cone;
        sq += 1;
    }
    t
}

/// The features of Black on `b` (Black's view: for White, call it on the flipped board), with
/// `lead` and the side-to-move features left at 0.
fn side_features(b: &Board, f: &mut [i32; N]) {
    let (own, opp) = (b.pieces[0], b.pieces[1]);
    let men = own & !b.kings;
    let kings = own & b.kings;
    let empty = !(own | opp);
    let opp_men = opp & !b.kings;
    f[0] = men.count_ones() as i32;
    f[1] = kings.count_ones() as i32;
    if opp_men != 0 {
        f[2] = (men & BACK).count_ones() as i32;
        f[3] = (men & BRIDGE == BRIDGE) as i32;
        f[4] = (men & TRIANGLE == TRIANGLE) as i32;
    }
    f[5] = (men & CENTRE).count_ones() as i32;
    f[6] = (kings & CENTRE).count_ones() as i32;
    f[7] = (men & EDGES).count_ones() as i32;
    // Rows advanced: the men of each row, by row.
    let mut advance = 0;
    for row in 1..8 {
        advance += row * (men & (0xF << (4 * row))).count_ones() as i32;
    }
    f[8] = advance;
    let king_steps = [UL, UR].iter().map(|&d| (step(kings, d) & empty).count_ones()).sum::<u32>();
    let man_steps = [DL, DR].iter().map(|&d| (step(own, d) & empty).count_ones()).sum::<u32>();
    f[9] = (man_steps + king_steps) as i32;
    let mut m = men;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        if CONES[sq as usize] & opp == 0 {
            f[10] += 1;
            f[11] += 7 - (sq / 4) as i32;
        }
    }
    let movable = step(empty, UL) | step(empty, UR) | (step(empty, DL) | step(empty, DR));
    f[12] = (kings & !movable).count_ones() as i32;
    f[13] = (kings & DOUBLE_CORNERS).count_ones() as i32;
    f[14] = (men & (1 << 27) != 0 && opp & (1 << 31) != 0) as i32;
    // A man is jumped from in front (from below, for Black) onto the square behind it: backed
    // where both squares behind are taken or off the board.
    let behind_left = step(men, UL) & empty;
    let behind_right = step(men, UR) & empty;
    let open = step(behind_left, DR) | step(behind_right, DL);
    f[15] = (men & !open).count_ones() as i32;
    // Empty squares with three or four own neighbours.
    let n = [DL, DR, UL, UR].map(|d| step(own, d));
    let three = (n[0] & n[1] & (n[2] | n[3])) | (n[2] & n[3] & (n[0] | n[1]));
    f[16] = (three & empty).count_ones() as i32;
    // Men unevenly spread over the two halves.
    f[20] = ((men & LEFT).count_ones() as i32 - (men & !LEFT).count_ones() as i32).abs();
}

/// Every feature of `g` for the side to move less the opponent's (see [`FEATURES`]), and the
/// number of pieces on the board (the phase).
pub fn features(g: &Checkers) -> ([i32; N], i32) {
    let b = g.board();
    let me = g.to_move();
    let (mine, theirs) = match me {
        Side::First => (*b, flip(b)),
        Side::Second => (flip(b), *b),
    };
    let (mut a, mut o) = ([0; N], [0; N]);
    side_features(&mine, &mut a);
    side_features(&theirs, &mut o);
    let mut f = [0; N];
    for i in 0..N {
        f[i] = a[i] - o[i];
    }
    let total = (b.pieces[0] | b.pieces[1]).count_ones() as i32;
    let lead = (a[0] + a[1]) - (o[0] + o[1]);
    f[17] = lead * (24 - total).max(0);
    f[18] = b.jumpers(me.other()).count_ones() as i32;
    f[19] = 1;
    let system = if me == Side::First { EVEN_ROWS } else { !EVEN_ROWS };
    f[21] = if ((b.pieces[0] | b.pieces[1]) & system).count_ones() % 2 == 1 { 1 } else { -1 };
    (f, total)
}

/// The evaluation of `g` for the side to move with the weights `w` (indexed as [`NAMES`]).
pub fn evaluate_with(g: &Checkers, w: &[i32]) -> i32 {
    let (f, total) = features(g);
    let (mut open, mut end) = (0, 0);
    for i in 0..N {
        open += w[i] * f[i];
        end += w[N + i] * f[i];
    }
    let phase = total.min(24);
    (open * phase + end * (24 - phase)) / 24
}

/// The evaluation with the weights compiled in.
pub fn evaluate(g: &Checkers) -> i32 {
    evaluate_with(g, &DEFAULTS)
}

//! The fitted confidence rules (`ConfidenceRule::SEMANTIC` and `KEYWORD`). Written by
//! `scripts/eval/calibrate.py --write` from the eval reports of the four labelled corpora
//! (dev questions only); refit after any change to the signals or to the fusion they read.
//! Do not edit by hand.

use super::confidence::{ConfidenceRule, LinearScore};

pub const SEMANTIC: ConfidenceRule = ConfidenceRule {
    answerable: LinearScore {
        weights: [-0.5727, 15.3007, 1.0659, 1.5812, -10.2946, 0.1286, 0.3583, 0.0000, 0.0000],
        bias: -2.0208,
    },
    refuse_below: -2.8872,
    right_first: LinearScore {
        weights: [-0.8297, 5.2754, 1.0219, 0.1986, 0.0000, 0.3567, 0.2382, 0.9092, 3.6916],
        bias: -4.6990,
    },
    medium: 0.0000,
    high: 2.1568,
};

pub const KEYWORD: ConfidenceRule = ConfidenceRule {
    answerable: LinearScore {
        weights: [0.0000, 0.0000, 2.5737, 0.0000, -9.9067, 0.0000, 0.0000, 0.0000, 0.0000],
        bias: -0.2069,
    },
    refuse_below: -4.4892,
    right_first: LinearScore {
        weights: [0.0000, 0.0000, 1.3060, 0.0000, -3.9528, 0.0000, 0.0000, 0.0000, 8.6820],
        bias: -1.4980,
    },
    medium: 0.0000,
    high: 2.3736,
};

//! Mäntysalo 2024's experiment as the thesis ran it: its 24 scenarios (room and random maps,
//! 128/256/512 cells a side, 2/5/10/20% of the dynamic obstacles changed per event), its 11
//! algorithm variants, and its published means (Appendix A, Tables A.1 to A.24) to set beside
//! pathlab's.

use super::dynamic::{run_experiment, DynAlgo, MapKind, Row, Setup};
use std::collections::BTreeMap;

/// The thesis's variants, in its tables' order.
pub const ALGOS: &[&str] = &[
    "astar",
    "dstar-lite",
    "rtd:32",
    "rtd:64",
    "rtd:128",
    "rtd:256",
    "rtd:512",
    "ad:2",
    "ad:3",
    "ad:5",
    "ad:changing",
];

/// One published mean: map kind, size, magnitude (%), variant, total ms, recompute ms, travelled
/// length, expanded nodes (each the mean of 100 runs).
pub type ThesisRow = (&'static str, u32, u32, &'static str, f64, f64, f64, f64);

/// Appendix A of the thesis, every table (A.8's RTD* 512 row repeats A.6's, as printed).
pub const THESIS: &[ThesisRow] = &[
    // Table A.1
    ("room", 128, 2, "astar", 71.0, 2.333, 301.0, 62910.0),
    ("room", 128, 2, "dstar-lite", 25.0, 0.509, 297.0, 12170.0),
    ("room", 128, 2, "rtd:32", 38.0, 0.074, 603.0, 8086.0),
    ("room", 128, 2, "rtd:64", 56.0, 0.118, 512.0, 11938.0),
    ("room", 128, 2, "rtd:128", 76.0, 0.189, 421.0, 15420.0),
    ("room", 128, 2, "rtd:256", 73.0, 0.243, 334.0, 13985.0),
    ("room", 128, 2, "rtd:512", 63.0, 0.288, 307.0, 11743.0),
    ("room", 128, 2, "ad:2", 42.0, 0.988, 341.0, 11021.0),
    ("room", 128, 2, "ad:3", 37.0, 0.766, 389.0, 10008.0),
    ("room", 128, 2, "ad:5", 29.0, 0.589, 410.0, 7709.0),
    ("room", 128, 2, "ad:changing", 88.0, 0.601, 299.0, 22161.0),
    // Table A.2
    ("room", 128, 5, "astar", 80.0, 2.464, 322.0, 74520.0),
    ("room", 128, 5, "dstar-lite", 51.0, 1.314, 321.0, 22589.0),
    ("room", 128, 5, "rtd:32", 34.0, 0.072, 549.0, 7332.0),
    ("room", 128, 5, "rtd:64", 54.0, 0.123, 478.0, 11201.0),
    ("room", 128, 5, "rtd:128", 82.0, 0.217, 418.0, 16478.0),
    ("room", 128, 5, "rtd:256", 107.0, 0.353, 362.0, 20523.0),
    ("room", 128, 5, "rtd:512", 122.0, 0.536, 335.0, 22454.0),
    ("room", 128, 5, "ad:2", 58.0, 1.58, 340.0, 17200.0),
    ("room", 128, 5, "ad:3", 50.0, 1.253, 375.0, 14301.0),
    ("room", 128, 5, "ad:5", 42.0, 0.982, 401.0, 11957.0),
    ("room", 128, 5, "ad:changing", 137.0, 1.816, 322.0, 33784.0),
    // Table A.3
    ("room", 128, 10, "astar", 91.0, 2.642, 345.0, 85707.0),
    ("room", 128, 10, "dstar-lite", 100.0, 2.589, 355.0, 42850.0),
    ("room", 128, 10, "rtd:32", 33.0, 0.073, 537.0, 7153.0),
    ("room", 128, 10, "rtd:64", 58.0, 0.138, 486.0, 12008.0),
    ("room", 128, 10, "rtd:128", 93.0, 0.258, 425.0, 18368.0),
    ("room", 128, 10, "rtd:256", 132.0, 0.45, 373.0, 24413.0),
    ("room", 128, 10, "rtd:512", 183.0, 0.763, 360.0, 33236.0),
    ("room", 128, 10, "ad:2", 114.0, 2.921, 369.0, 35646.0),
    ("room", 128, 10, "ad:3", 96.0, 2.258, 398.0, 29683.0),
    ("room", 128, 10, "ad:5", 75.0, 1.699, 421.0, 22841.0),
    ("room", 128, 10, "ad:changing", 205.0, 2.513, 346.0, 63459.0),
    // Table A.4
    ("room", 128, 20, "astar", 106.0, 2.709, 391.0, 99203.0),
    ("room", 128, 20, "dstar-lite", 178.0, 4.241, 406.0, 74713.0),
    ("room", 128, 20, "rtd:32", 34.0, 0.08, 537.0, 7316.0),
    ("room", 128, 20, "rtd:64", 58.0, 0.152, 468.0, 11720.0),
    ("room", 128, 20, "rtd:128", 104.0, 0.295, 437.0, 20254.0),
    ("room", 128, 20, "rtd:256", 159.0, 0.539, 394.0, 29321.0),
    ("room", 128, 20, "rtd:512", 267.0, 0.985, 411.0, 48250.0),
    ("room", 128, 20, "ad:2", 187.0, 4.285, 415.0, 59132.0),
    ("room", 128, 20, "ad:3", 146.0, 3.292, 433.0, 45490.0),
    ("room", 128, 20, "ad:5", 104.0, 2.206, 451.0, 32136.0),
    (
        "room",
        128,
        20,
        "ad:changing",
        323.0,
        4.315,
        394.0,
        105331.0,
    ),
    // Table A.5
    ("room", 256, 2, "astar", 647.0, 10.778, 626.0, 539873.0),
    ("room", 256, 2, "dstar-lite", 375.0, 5.611, 628.0, 140604.0),
    ("room", 256, 2, "rtd:32", 81.0, 0.088, 1125.0, 16298.0),
    ("room", 256, 2, "rtd:64", 127.0, 0.164, 941.0, 24795.0),
    ("room", 256, 2, "rtd:128", 212.0, 0.289, 822.0, 39217.0),
    ("room", 256, 2, "rtd:256", 335.0, 0.537, 721.0, 58822.0),
    ("room", 256, 2, "rtd:512", 509.0, 0.915, 677.0, 86787.0),
    ("room", 256, 2, "ad:2", 395.0, 5.714, 699.0, 110492.0),
    ("room", 256, 2, "ad:3", 318.0, 4.185, 771.0, 86826.0),
    ("room", 256, 2, "ad:5", 252.0, 3.016, 845.0, 68205.0),
    ("room", 256, 2, "ad:changing", 900.0, 4.642, 635.0, 242681.0),
    // Table A.6
    ("room", 256, 5, "astar", 670.0, 10.556, 669.0, 559229.0),
    ("room", 256, 5, "dstar-lite", 864.0, 12.896, 691.0, 310169.0),
    ("room", 256, 5, "rtd:32", 80.0, 0.101, 1105.0, 16066.0),
    ("room", 256, 5, "rtd:64", 131.0, 0.178, 939.0, 24952.0),
    ("room", 256, 5, "rtd:128", 226.0, 0.333, 824.0, 41440.0),
    ("room", 256, 5, "rtd:256", 374.0, 0.619, 720.0, 64439.0),
    ("room", 256, 5, "rtd:512", 860.0, 1.396, 767.0, 142080.0),
    ("room", 256, 5, "ad:2", 709.0, 10.356, 721.0, 202143.0),
    ("room", 256, 5, "ad:3", 663.0, 8.377, 832.0, 188141.0),
    ("room", 256, 5, "ad:5", 493.0, 5.891, 886.0, 139151.0),
    (
        "room",
        256,
        5,
        "ad:changing",
        1626.0,
        10.269,
        683.0,
        474271.0,
    ),
    // Table A.7
    ("room", 256, 10, "astar", 774.0, 11.574, 707.0, 639216.0),
    (
        "room",
        256,
        10,
        "dstar-lite",
        1559.0,
        22.567,
        732.0,
        550125.0,
    ),
    ("room", 256, 10, "rtd:32", 78.0, 0.113, 1049.0, 15246.0),
    ("room", 256, 10, "rtd:64", 128.0, 0.202, 888.0, 23626.0),
    ("room", 256, 10, "rtd:128", 229.0, 0.364, 797.0, 41105.0),
    ("room", 256, 10, "rtd:256", 420.0, 0.682, 743.0, 70453.0),
    ("room", 256, 10, "rtd:512", 755.0, 1.288, 715.0, 123649.0),
    ("room", 256, 10, "ad:2", 1154.0, 15.589, 791.0, 333105.0),
    ("room", 256, 10, "ad:3", 912.0, 11.502, 857.0, 262252.0),
    ("room", 256, 10, "ad:5", 706.0, 8.444, 898.0, 202187.0),
    (
        "room",
        256,
        10,
        "ad:changing",
        3296.0,
        21.024,
        735.0,
        1012450.0,
    ),
    // Table A.8
    ("room", 256, 20, "astar", 946.0, 12.749, 792.0, 775388.0),
    (
        "room",
        256,
        20,
        "dstar-lite",
        2557.0,
        34.139,
        799.0,
        901818.0,
    ),
    ("room", 256, 20, "rtd:32", 80.0, 0.132, 1034.0, 15095.0),
    ("room", 256, 20, "rtd:64", 135.0, 0.22, 907.0, 24561.0),
    ("room", 256, 20, "rtd:128", 242.0, 0.4, 810.0, 42970.0),
    ("room", 256, 20, "rtd:256", 453.0, 0.738, 771.0, 76432.0),
    ("room", 256, 20, "rtd:512", 860.0, 1.396, 767.0, 142080.0),
    ("room", 256, 20, "ad:2", 1784.0, 22.458, 857.0, 515567.0),
    ("room", 256, 20, "ad:3", 1376.0, 16.552, 902.0, 396935.0),
    ("room", 256, 20, "ad:5", 1046.0, 11.655, 963.0, 301610.0),
    (
        "room",
        256,
        20,
        "ad:changing",
        6197.0,
        37.332,
        806.0,
        1945127.0,
    ),
    // Table A.9
    ("room", 512, 2, "astar", 5041.0, 45.958, 1176.0, 3653122.0),
    (
        "room",
        512,
        2,
        "dstar-lite",
        5914.0,
        51.27,
        1214.0,
        1785302.0,
    ),
    ("room", 512, 2, "rtd:32", 212.0, 0.141, 2495.0, 38269.0),
    ("room", 512, 2, "rtd:64", 335.0, 0.232, 2087.0, 60139.0),
    ("room", 512, 2, "rtd:128", 523.0, 0.416, 1614.0, 87971.0),
    ("room", 512, 2, "rtd:256", 804.0, 0.71, 1396.0, 126735.0),
    ("room", 512, 2, "rtd:512", 1353.0, 1.25, 1314.0, 208062.0),
    ("room", 512, 2, "ad:2", 2457.0, 18.818, 1396.0, 625645.0),
    ("room", 512, 2, "ad:3", 1906.0, 12.92, 1579.0, 483396.0),
    ("room", 512, 2, "ad:5", 1538.0, 9.795, 1677.0, 388050.0),
    (
        "room",
        512,
        2,
        "ad:changing",
        11601.0,
        35.672,
        1216.0,
        2881454.0,
    ),
    // Table A.10
    ("room", 512, 5, "astar", 5044.0, 44.646, 1219.0, 3678180.0),
    (
        "room",
        512,
        5,
        "dstar-lite",
        10697.0,
        89.756,
        1286.0,
        3167228.0,
    ),
    ("room", 512, 5, "rtd:32", 205.0, 0.178, 2338.0, 35757.0),
    ("room", 512, 5, "rtd:64", 340.0, 0.268, 2084.0, 60907.0),
    ("room", 512, 5, "rtd:128", 536.0, 0.471, 1579.0, 88526.0),
    ("room", 512, 5, "rtd:256", 879.0, 0.798, 1422.0, 137982.0),
    ("room", 512, 5, "rtd:512", 1456.0, 1.464, 1295.0, 221097.0),
    ("room", 512, 5, "ad:2", 4088.0, 29.263, 1512.0, 1065771.0),
    ("room", 512, 5, "ad:3", 3258.0, 21.279, 1646.0, 850201.0),
    ("room", 512, 5, "ad:5", 2715.0, 16.392, 1789.0, 707477.0),
    (
        "room",
        512,
        5,
        "ad:changing",
        21738.0,
        69.829,
        1292.0,
        5700029.0,
    ),
    // Table A.11
    ("room", 512, 10, "astar", 5611.0, 46.325, 1313.0, 4070216.0),
    (
        "room",
        512,
        10,
        "dstar-lite",
        16640.0,
        128.477,
        1412.0,
        4852433.0,
    ),
    ("room", 512, 10, "rtd:32", 212.0, 0.237, 2293.0, 35163.0),
    ("room", 512, 10, "rtd:64", 354.0, 0.331, 2071.0, 60771.0),
    ("room", 512, 10, "rtd:128", 554.0, 0.544, 1578.0, 90592.0),
    ("room", 512, 10, "rtd:256", 963.0, 0.915, 1447.0, 150287.0),
    ("room", 512, 10, "rtd:512", 1677.0, 1.648, 1364.0, 256991.0),
    ("room", 512, 10, "ad:2", 6082.0, 40.425, 1646.0, 1613898.0),
    ("room", 512, 10, "ad:3", 4832.0, 29.454, 1788.0, 1275526.0),
    ("room", 512, 10, "ad:5", 3910.0, 22.542, 1890.0, 1031184.0),
    (
        "room",
        512,
        10,
        "ad:changing",
        39005.0,
        114.963,
        1435.0,
        10456869.0,
    ),
    // Table A.12
    ("room", 512, 20, "astar", 6236.0, 45.71, 1479.0, 4543551.0),
    (
        "room",
        512,
        20,
        "dstar-lite",
        23434.0,
        158.723,
        1618.0,
        6716797.0,
    ),
    ("room", 512, 20, "rtd:32", 224.0, 0.346, 2246.0, 34529.0),
    ("room", 512, 20, "rtd:64", 366.0, 0.455, 2044.0, 60432.0),
    ("room", 512, 20, "rtd:128", 562.0, 0.661, 1547.0, 90358.0),
    ("room", 512, 20, "rtd:256", 1077.0, 1.073, 1506.0, 164323.0),
    ("room", 512, 20, "rtd:512", 2011.0, 1.831, 1489.0, 309174.0),
    ("room", 512, 20, "ad:2", 8592.0, 50.59, 1841.0, 2282869.0),
    ("room", 512, 20, "ad:3", 6669.0, 36.815, 1973.0, 1769471.0),
    ("room", 512, 20, "ad:5", 5462.0, 28.528, 2090.0, 1441077.0),
    (
        "room",
        512,
        20,
        "ad:changing",
        58000.0,
        155.508,
        1599.0,
        15632080.0,
    ),
    // Table A.13
    ("random", 128, 2, "astar", 26.0, 1.027, 254.0, 24031.0),
    ("random", 128, 2, "dstar-lite", 18.0, 0.236, 254.0, 8226.0),
    ("random", 128, 2, "rtd:32", 16.0, 0.156, 257.0, 2413.0),
    ("random", 128, 2, "rtd:64", 23.0, 0.202, 257.0, 3664.0),
    ("random", 128, 2, "rtd:128", 31.0, 0.272, 254.0, 4992.0),
    ("random", 128, 2, "rtd:256", 38.0, 0.304, 254.0, 6218.0),
    ("random", 128, 2, "rtd:512", 45.0, 0.388, 254.0, 7096.0),
    ("random", 128, 2, "ad:2", 7.0, 0.219, 287.0, 507.0),
    ("random", 128, 2, "ad:3", 7.0, 0.214, 288.0, 473.0),
    ("random", 128, 2, "ad:5", 7.0, 0.213, 291.0, 459.0),
    ("random", 128, 2, "ad:changing", 66.0, 0.647, 254.0, 8983.0),
    // Table A.14
    ("random", 128, 5, "astar", 26.0, 1.059, 254.0, 25863.0),
    ("random", 128, 5, "dstar-lite", 26.0, 0.597, 256.0, 10236.0),
    ("random", 128, 5, "rtd:32", 21.0, 0.297, 263.0, 2848.0),
    ("random", 128, 5, "rtd:64", 30.0, 0.372, 259.0, 4403.0),
    ("random", 128, 5, "rtd:128", 42.0, 0.49, 257.0, 6254.0),
    ("random", 128, 5, "rtd:256", 52.0, 0.659, 257.0, 7829.0),
    ("random", 128, 5, "rtd:512", 57.0, 0.75, 256.0, 8937.0),
    ("random", 128, 5, "ad:2", 13.0, 0.447, 284.0, 1070.0),
    ("random", 128, 5, "ad:3", 12.0, 0.434, 286.0, 990.0),
    ("random", 128, 5, "ad:5", 12.0, 0.43, 289.0, 973.0),
    ("random", 128, 5, "ad:changing", 81.0, 0.992, 257.0, 10802.0),
    // Table A.15
    ("random", 128, 10, "astar", 28.0, 1.124, 255.0, 26998.0),
    ("random", 128, 10, "dstar-lite", 41.0, 1.201, 258.0, 13335.0),
    ("random", 128, 10, "rtd:32", 29.0, 0.493, 271.0, 3323.0),
    ("random", 128, 10, "rtd:64", 41.0, 0.592, 264.0, 5279.0),
    ("random", 128, 10, "rtd:128", 57.0, 0.775, 260.0, 7731.0),
    ("random", 128, 10, "rtd:256", 73.0, 1.053, 259.0, 10120.0),
    ("random", 128, 10, "rtd:512", 80.0, 1.385, 258.0, 11608.0),
    ("random", 128, 10, "ad:2", 22.0, 0.854, 280.0, 2426.0),
    ("random", 128, 10, "ad:3", 22.0, 0.827, 282.0, 2277.0),
    ("random", 128, 10, "ad:5", 22.0, 0.83, 284.0, 2311.0),
    (
        "random",
        128,
        10,
        "ad:changing",
        104.0,
        1.626,
        259.0,
        13610.0,
    ),
    // Table A.16
    ("random", 128, 20, "astar", 30.0, 1.183, 255.0, 27910.0),
    ("random", 128, 20, "dstar-lite", 68.0, 2.281, 263.0, 18912.0),
    ("random", 128, 20, "rtd:32", 40.0, 0.841, 276.0, 3666.0),
    ("random", 128, 20, "rtd:64", 57.0, 0.978, 270.0, 6292.0),
    ("random", 128, 20, "rtd:128", 78.0, 1.211, 266.0, 9736.0),
    ("random", 128, 20, "rtd:256", 106.0, 1.634, 263.0, 13397.0),
    ("random", 128, 20, "rtd:512", 123.0, 2.187, 263.0, 16342.0),
    ("random", 128, 20, "ad:2", 37.0, 1.461, 278.0, 3888.0),
    ("random", 128, 20, "ad:3", 37.0, 1.437, 279.0, 3773.0),
    ("random", 128, 20, "ad:5", 37.0, 1.431, 281.0, 3778.0),
    (
        "random",
        128,
        20,
        "ad:changing",
        150.0,
        2.918,
        263.0,
        19546.0,
    ),
    // Table A.17
    ("random", 256, 2, "astar", 175.0, 3.673, 510.0, 160376.0),
    ("random", 256, 2, "dstar-lite", 112.0, 1.627, 512.0, 37067.0),
    ("random", 256, 2, "rtd:32", 58.0, 0.45, 533.0, 6838.0),
    ("random", 256, 2, "rtd:64", 95.0, 0.555, 526.0, 11656.0),
    ("random", 256, 2, "rtd:128", 137.0, 0.727, 519.0, 18294.0),
    ("random", 256, 2, "rtd:256", 192.0, 1.009, 516.0, 25455.0),
    ("random", 256, 2, "rtd:512", 228.0, 1.33, 514.0, 31520.0),
    ("random", 256, 2, "ad:2", 43.0, 0.777, 568.0, 2418.0),
    ("random", 256, 2, "ad:3", 45.0, 0.793, 586.0, 2493.0),
    ("random", 256, 2, "ad:5", 45.0, 0.79, 598.0, 2556.0),
    (
        "random",
        256,
        2,
        "ad:changing",
        487.0,
        2.874,
        514.0,
        39374.0,
    ),
    // Table A.18
    ("random", 256, 5, "astar", 183.0, 3.826, 511.0, 163676.0),
    ("random", 256, 5, "dstar-lite", 222.0, 3.881, 517.0, 59731.0),
    ("random", 256, 5, "rtd:32", 93.0, 0.998, 549.0, 7587.0),
    ("random", 256, 5, "rtd:64", 128.0, 1.119, 536.0, 13595.0),
    ("random", 256, 5, "rtd:128", 202.0, 1.37, 528.0, 22977.0),
    ("random", 256, 5, "rtd:256", 285.0, 1.79, 521.0, 35346.0),
    ("random", 256, 5, "rtd:512", 377.0, 2.475, 519.0, 47121.0),
    ("random", 256, 5, "ad:2", 98.0, 1.889, 565.0, 8846.0),
    ("random", 256, 5, "ad:3", 98.0, 1.851, 575.0, 9000.0),
    ("random", 256, 5, "ad:5", 99.0, 1.838, 583.0, 8984.0),
    (
        "random",
        256,
        5,
        "ad:changing",
        704.0,
        5.214,
        520.0,
        64679.0,
    ),
    // Table A.19
    ("random", 256, 10, "astar", 192.0, 4.044, 512.0, 170366.0),
    (
        "random",
        256,
        10,
        "dstar-lite",
        380.0,
        7.095,
        522.0,
        89712.0,
    ),
    ("random", 256, 10, "rtd:32", 132.0, 1.796, 553.0, 7875.0),
    ("random", 256, 10, "rtd:64", 186.0, 1.977, 544.0, 14723.0),
    ("random", 256, 10, "rtd:128", 261.0, 2.255, 536.0, 26652.0),
    ("random", 256, 10, "rtd:256", 385.0, 2.774, 527.0, 43993.0),
    ("random", 256, 10, "rtd:512", 557.0, 3.764, 525.0, 64504.0),
    ("random", 256, 10, "ad:2", 180.0, 3.496, 566.0, 17502.0),
    ("random", 256, 10, "ad:3", 186.0, 3.557, 576.0, 17247.0),
    ("random", 256, 10, "ad:5", 190.0, 3.594, 583.0, 17353.0),
    (
        "random",
        256,
        10,
        "ad:changing",
        1000.0,
        9.168,
        528.0,
        105960.0,
    ),
    // Table A.20
    ("random", 256, 20, "astar", 200.0, 4.173, 513.0, 174809.0),
    (
        "random",
        256,
        20,
        "dstar-lite",
        656.0,
        12.547,
        530.0,
        136167.0,
    ),
    ("random", 256, 20, "rtd:32", 217.0, 3.391, 555.0, 8070.0),
    ("random", 256, 20, "rtd:64", 255.0, 3.518, 546.0, 15249.0),
    ("random", 256, 20, "rtd:128", 348.0, 3.836, 539.0, 28284.0),
    ("random", 256, 20, "rtd:256", 500.0, 4.394, 532.0, 49671.0),
    ("random", 256, 20, "rtd:512", 767.0, 5.698, 529.0, 80281.0),
    ("random", 256, 20, "ad:2", 305.0, 5.887, 574.0, 23217.0),
    ("random", 256, 20, "ad:3", 303.0, 5.771, 582.0, 22976.0),
    ("random", 256, 20, "ad:5", 300.0, 5.68, 586.0, 22608.0),
    (
        "random",
        256,
        20,
        "ad:changing",
        1509.0,
        16.402,
        536.0,
        186514.0,
    ),
    // Table A.21
    ("random", 512, 2, "astar", 1305.0, 13.886, 1024.0, 1174746.0),
    (
        "random",
        512,
        2,
        "dstar-lite",
        953.0,
        8.293,
        1032.0,
        217966.0,
    ),
    ("random", 512, 2, "rtd:32", 262.0, 1.671, 1121.0, 16642.0),
    ("random", 512, 2, "rtd:64", 359.0, 1.829, 1092.0, 30567.0),
    ("random", 512, 2, "rtd:128", 553.0, 2.133, 1072.0, 54219.0),
    ("random", 512, 2, "rtd:256", 804.0, 2.621, 1055.0, 88803.0),
    ("random", 512, 2, "rtd:512", 1173.0, 3.563, 1045.0, 134909.0),
    ("random", 512, 2, "ad:2", 346.0, 3.251, 1155.0, 27700.0),
    ("random", 512, 2, "ad:3", 348.0, 3.22, 1170.0, 26070.0),
    ("random", 512, 2, "ad:5", 353.0, 3.199, 1201.0, 26568.0),
    (
        "random",
        512,
        2,
        "ad:changing",
        5009.0,
        16.905,
        1035.0,
        236242.0,
    ),
    // Table A.22
    ("random", 512, 5, "astar", 1382.0, 14.698, 1024.0, 1244540.0),
    (
        "random",
        512,
        5,
        "dstar-lite",
        1934.0,
        18.608,
        1039.0,
        377591.0,
    ),
    ("random", 512, 5, "rtd:32", 473.0, 3.766, 1120.0, 16915.0),
    ("random", 512, 5, "rtd:64", 578.0, 3.948, 1097.0, 31784.0),
    ("random", 512, 5, "rtd:128", 776.0, 4.234, 1079.0, 59527.0),
    ("random", 512, 5, "rtd:256", 1133.0, 4.842, 1064.0, 107103.0),
    ("random", 512, 5, "rtd:512", 1735.0, 6.165, 1054.0, 178178.0),
    ("random", 512, 5, "ad:2", 797.0, 7.622, 1153.0, 75166.0),
    ("random", 512, 5, "ad:3", 792.0, 7.487, 1168.0, 71616.0),
    ("random", 512, 5, "ad:5", 801.0, 7.436, 1190.0, 70894.0),
    (
        "random",
        512,
        5,
        "ad:changing",
        7266.0,
        27.459,
        1050.0,
        441818.0,
    ),
    // Table A.23
    ("random", 512, 10, "astar", 1386.0, 14.69, 1026.0, 1252571.0),
    (
        "random",
        512,
        10,
        "dstar-lite",
        3354.0,
        33.158,
        1048.0,
        579126.0,
    ),
    ("random", 512, 10, "rtd:32", 783.0, 6.882, 1121.0, 17060.0),
    ("random", 512, 10, "rtd:64", 874.0, 7.074, 1097.0, 32387.0),
    ("random", 512, 10, "rtd:128", 1069.0, 7.401, 1082.0, 61654.0),
    (
        "random", 512, 10, "rtd:256", 1447.0, 8.094, 1067.0, 115038.0,
    ),
    (
        "random", 512, 10, "rtd:512", 2169.0, 9.538, 1058.0, 202847.0,
    ),
    ("random", 512, 10, "ad:2", 1293.0, 12.302, 1167.0, 100539.0),
    ("random", 512, 10, "ad:3", 1279.0, 12.033, 1178.0, 95659.0),
    ("random", 512, 10, "ad:5", 1295.0, 12.013, 1197.0, 94843.0),
    (
        "random",
        512,
        10,
        "ad:changing",
        10071.0,
        43.937,
        1064.0,
        759609.0,
    ),
    // Table A.24
    ("random", 512, 20, "astar", 1376.0, 14.53, 1029.0, 1242035.0),
    (
        "random",
        512,
        20,
        "dstar-lite",
        5740.0,
        56.991,
        1063.0,
        895093.0,
    ),
    ("random", 512, 20, "rtd:32", 1375.0, 12.745, 1127.0, 17273.0),
    ("random", 512, 20, "rtd:64", 1468.0, 13.092, 1103.0, 33001.0),
    (
        "random", 512, 20, "rtd:128", 1671.0, 13.477, 1093.0, 63487.0,
    ),
    (
        "random", 512, 20, "rtd:256", 2054.0, 14.164, 1075.0, 119739.0,
    ),
    (
        "random", 512, 20, "rtd:512", 2830.0, 15.472, 1064.0, 218397.0,
    ),
    ("random", 512, 20, "ad:2", 2085.0, 19.697, 1177.0, 109285.0),
    ("random", 512, 20, "ad:3", 2090.0, 19.504, 1191.0, 105125.0),
    ("random", 512, 20, "ad:5", 2093.0, 19.269, 1208.0, 103140.0),
    (
        "random",
        512,
        20,
        "ad:changing",
        14738.0,
        75.336,
        1079.0,
        1398342.0,
    ),
];

/// One of the 24 scenarios.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scenario {
    pub kind: MapKind,
    pub size: u32,
    /// Percent of the dynamic obstacles changed per event.
    pub magnitude: u32,
}

impl Scenario {
    /// `room-128-2`: how `--scenarios` and the summary name it.
    pub fn name(&self) -> String {
        format!("{}-{}-{}", self.kind.name(), self.size, self.magnitude)
    }

    /// The thesis's table for this scenario (Table A.n), in its row order.
    pub fn thesis(&self) -> Vec<&'static ThesisRow> {
        THESIS
            .iter()
            .filter(|r| (r.0, r.1, r.2) == (self.kind.name(), self.size, self.magnitude))
            .collect()
    }

    /// The table number in the thesis's appendix.
    pub fn table(&self) -> usize {
        all().iter().position(|s| s == self).map_or(0, |i| i + 1)
    }
}

/// The 24 scenarios in the thesis's order (room then random; 128, 256, 512; 2, 5, 10, 20%).
pub fn all() -> Vec<Scenario> {
    let mut out = vec![];
    for kind in [MapKind::Room, MapKind::Random] {
        for size in [128, 256, 512] {
            for magnitude in [2, 5, 10, 20] {
                out.push(Scenario {
                    kind,
                    size,
                    magnitude,
                });
            }
        }
    }
    out
}

/// True when `name` matches `pattern`, where `*` stands for any run of characters.
fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            name.starts_with(head)
                && (0..=name.len() - head.len()).any(|i| glob(rest, &name[head.len() + i..]))
        }
    }
}

/// The scenarios named by `spec` (comma-separated names or patterns: `room-128-2`,
/// `random-*-20`, `*-256-*`; empty means all), then shard `i` of `n` (1-based: every n-th
/// scenario from the i-th), so a job runner can spread them and concatenate the CSVs.
pub fn select(spec: &str, shard: (usize, usize)) -> Result<Vec<Scenario>, String> {
    let (i, n) = shard;
    if n == 0 || i == 0 || i > n {
        return Err(format!("--shard {i}/{n}: expected I/N with 1 ≤ I ≤ N"));
    }
    let patterns: Vec<&str> = spec
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    for p in &patterns {
        if !all().iter().any(|s| glob(p, &s.name())) {
            return Err(format!(
                "`{p}` names no scenario (they are KIND-SIZE-MAGNITUDE: room-128-2 … random-512-20)"
            ));
        }
    }
    Ok(all()
        .into_iter()
        .filter(|s| patterns.is_empty() || patterns.iter().any(|p| glob(p, &s.name())))
        .enumerate()
        .filter(|(k, _)| k % n == i - 1)
        .map(|(_, s)| s)
        .collect())
}

/// Runs every variant on each scenario, scenarios in parallel (and runs within each);
/// `progress` gets thousandths of a run as in [`run_experiment`].
pub fn run(
    scenarios: &[Scenario],
    runs: u32,
    seed: u64,
    progress: &(dyn Fn(u32) + Sync),
    cancel: &std::sync::atomic::AtomicBool,
) -> Vec<(Setup, Vec<Row>)> {
    use rayon::prelude::*;
    let algos: Vec<DynAlgo> = ALGOS
        .iter()
        .map(|a| DynAlgo::parse(a).expect("the thesis's variants parse"))
        .collect();
    scenarios
        .par_iter()
        .map(|s| {
            let setup = Setup {
                kind: s.kind,
                size: s.size,
                magnitude: s.magnitude as f64,
                runs,
                algos: algos.clone(),
                seed,
            };
            let rows = run_experiment(&setup, progress, cancel);
            (setup, rows)
        })
        .collect()
}

/// Means of one variant on one scenario, from CSV rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Means {
    pub runs: usize,
    pub success: f64,
    pub total_ms: f64,
    pub recompute_ms: f64,
    pub length: f64,
    pub replans: f64,
    pub nodes: f64,
}

/// Reads `experiment dynamic` CSV text (shards concatenated: repeated headers are skipped)
/// into means per (scenario name, variant).
pub fn means(csv: &str) -> Result<BTreeMap<(String, String), Means>, String> {
    let header = super::dynamic::CSV_HEADER;
    let mut sums: BTreeMap<(String, String), Means> = BTreeMap::new();
    for (n, line) in csv.lines().enumerate() {
        if line.trim().is_empty() || line == header {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let num = |i: usize| -> Result<f64, String> {
            f.get(i)
                .and_then(|v| v.parse::<f64>().ok())
                .ok_or_else(|| format!("line {}: column {} is not a number", n + 1, i + 1))
        };
        if f.len() != 11 {
            return Err(format!(
                "line {}: expected 11 columns, found {}",
                n + 1,
                f.len()
            ));
        }
        let key = (format!("{}-{}-{}", f[1], f[2], f[3]), f[0].to_string());
        let m = sums.entry(key).or_default();
        m.runs += 1;
        m.success += (f[5] == "true") as u8 as f64;
        m.length += num(6)?;
        m.replans += num(7)?;
        m.nodes += num(8)?;
        m.recompute_ms += num(9)?;
        m.total_ms += num(10)?;
    }
    for m in sums.values_mut() {
        let k = m.runs as f64;
        m.success /= k;
        m.length /= k;
        m.replans /= k;
        m.nodes /= k;
        m.recompute_ms /= k;
        m.total_ms /= k;
    }
    Ok(sums)
}

/// Searches of a run: the first plan and one per change event (one every 10 steps). The thesis
/// prints no replan count; for its rows this estimate is used on both sides.
fn searches(length: f64) -> f64 {
    (length / 10.0).floor() + 1.0
}

/// Relative difference in percent, signed.
fn delta(ours: f64, theirs: f64) -> f64 {
    if theirs == 0.0 {
        0.0
    } else {
        (ours / theirs - 1.0) * 100.0
    }
}

/// The scenarios in `means` as Markdown tables beside the thesis's, one per scenario: for each
/// variant the share of runs that reached the goal, travelled length, expanded nodes (the run's
/// total, and per search), recompute time and its ratio to A*, total time; pathlab first, the
/// thesis after the slash, then the difference. Differences in length and nodes above `flag`
/// percent are set in bold (times are not: the machines differ).
pub fn summary(means: &BTreeMap<(String, String), Means>, flag: f64) -> String {
    let mut out = String::new();
    for s in all() {
        let name = s.name();
        let ours = |a: &str| means.get(&(name.clone(), a.to_string()));
        let Some(a) = ours("astar") else { continue };
        out.push_str(&format!(
            "\n### Table A.{}: {} {}, {}% ({} runs)\n\n",
            s.table(),
            if s.kind == MapKind::Room {
                "Room"
            } else {
                "Random"
            },
            s.size,
            s.magnitude,
            a.runs
        ));
        out.push_str(
            "| variant | reached | length | nodes | nodes per search | recompute ms | × A* | total ms |\n",
        );
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        let thesis = s.thesis();
        let t_astar = thesis.iter().find(|r| r.3 == "astar").map_or(1.0, |r| r.5);
        let cell = |o: f64, t: f64, digits: usize, barred: bool| {
            let d = delta(o, t);
            if barred && d.abs() > flag {
                format!("{o:.digits$} / {t:.digits$} **{d:+.0}%**")
            } else {
                format!("{o:.digits$} / {t:.digits$} {d:+.0}%")
            }
        };
        for r in thesis {
            let Some(m) = ours(r.3) else { continue };
            // RTD* searches at every step, so only its run totals compare.
            let per_search = if r.3.starts_with("rtd:") {
                "–".to_string()
            } else {
                cell(m.nodes / (m.replans + 1.0), r.7 / searches(r.6), 0, true)
            };
            out.push_str(&format!(
                "| {} | {:.0}% | {} | {} | {} | {} | {} | {} |\n",
                r.3,
                m.success * 100.0,
                cell(m.length, r.6, 0, true),
                cell(m.nodes, r.7, 0, true),
                per_search,
                cell(m.recompute_ms, r.5, 3, false),
                cell(m.recompute_ms / a.recompute_ms, r.5 / t_astar, 2, false),
                cell(m.total_ms, r.4, 1, false),
            ));
        }
    }
    out
}

/// The thesis's findings checked on pathlab's means, one line each with the scenarios where they
/// hold and where they do not: D* Lite faster than A* at 2% and slower at 20%; RTD* 32 the
/// fastest recompute; static-ε AD* faster than A* at 2% on random maps; and A*'s and D* Lite's
/// travelled lengths and expansions per search within `within` percent of the thesis's.
pub fn findings(means: &BTreeMap<(String, String), Means>, within: f64) -> String {
    let mut lines = vec![];
    let mut check = |what: &str, cases: Vec<(String, bool)>| {
        let held: Vec<&str> = cases.iter().filter(|c| c.1).map(|c| c.0.as_str()).collect();
        let failed: Vec<&str> = cases
            .iter()
            .filter(|c| !c.1)
            .map(|c| c.0.as_str())
            .collect();
        let tail = if failed.is_empty() {
            String::new()
        } else {
            format!("; not in {}", failed.join(", "))
        };
        lines.push(format!(
            "- {what}: holds in {} of {}{tail}",
            held.len(),
            cases.len()
        ));
    };
    let get = |s: &Scenario, a: &str| means.get(&(s.name(), a.to_string()));
    let ran: Vec<Scenario> = all()
        .into_iter()
        .filter(|s| get(s, "astar").is_some())
        .collect();
    let rec = |s: &Scenario, a: &str| get(s, a).map_or(f64::NAN, |m| m.recompute_ms);
    let mut cases = vec![];
    for s in ran.iter().filter(|s| s.magnitude == 2 || s.magnitude == 20) {
        let faster = rec(s, "dstar-lite") < rec(s, "astar");
        cases.push((s.name(), faster == (s.magnitude == 2)));
    }
    check(
        "D* Lite recomputes faster than A* at 2% and slower at 20%",
        cases,
    );
    let cases = ran
        .iter()
        .map(|s| {
            let r32 = rec(s, "rtd:32");
            let others = ALGOS.iter().filter(|a| **a != "rtd:32");
            (s.name(), others.into_iter().all(|a| rec(s, a) >= r32))
        })
        .collect();
    check("RTD* 32 has the fastest recompute", cases);
    let cases = ran
        .iter()
        .filter(|s| s.kind == MapKind::Random && s.magnitude == 2)
        .map(|s| {
            let a = rec(s, "astar");
            (
                s.name(),
                ["ad:2", "ad:3", "ad:5"].iter().all(|v| rec(s, v) < a),
            )
        })
        .collect();
    check(
        "static-ε AD* recomputes faster than A* at 2% on random maps",
        cases,
    );
    for algo in ["astar", "dstar-lite"] {
        let mut lengths = vec![];
        let mut nodes = vec![];
        for s in ran.iter().filter(|s| s.size <= 256) {
            let (Some(m), Some(t)) = (get(s, algo), s.thesis().into_iter().find(|r| r.3 == algo))
            else {
                continue;
            };
            lengths.push((s.name(), delta(m.length, t.6).abs() <= within));
            let ours = m.nodes / (m.replans + 1.0);
            nodes.push((s.name(), delta(ours, t.7 / searches(t.6)).abs() <= within));
        }
        check(
            &format!("{algo}: travelled length within {within}% (128 and 256)"),
            lengths,
        );
        check(
            &format!("{algo}: expansions per search within {within}% (128 and 256)"),
            nodes,
        );
    }
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thesis_tables_are_whole() {
        assert_eq!(all().len(), 24);
        for s in all() {
            let t = s.thesis();
            let names: Vec<&str> = t.iter().map(|r| r.3).collect();
            assert_eq!(names, ALGOS, "{}", s.name());
        }
        // Spot checks against the printed tables.
        assert_eq!(
            all()[0].thesis()[0],
            &("room", 128, 2, "astar", 71.0, 2.333, 301.0, 62910.0)
        );
        let a24 = all()[23].thesis();
        assert_eq!((a24[0].1, a24[0].2, a24[0].6), (512, 20, 1029.0));
    }

    #[test]
    fn scenarios_select_by_pattern_and_shard() {
        let names = |v: Vec<Scenario>| v.iter().map(|s| s.name()).collect::<Vec<_>>();
        assert_eq!(names(select("room-128-2", (1, 1)).unwrap()), ["room-128-2"]);
        assert_eq!(select("*-256-*", (1, 1)).unwrap().len(), 8);
        assert_eq!(select("random-*-20", (1, 1)).unwrap().len(), 3);
        assert_eq!(select("", (1, 1)).unwrap().len(), 24);
        // Three shards cover the 24 once.
        let mut all_shards: Vec<String> = (1..=3)
            .flat_map(|i| names(select("", (i, 3)).unwrap()))
            .collect();
        all_shards.sort();
        let mut want = names(all());
        want.sort();
        assert_eq!(all_shards, want);
        assert!(select("room-64-2", (1, 1)).is_err());
        assert!(select("", (0, 2)).is_err() && select("", (3, 2)).is_err());
    }

    /// Concatenated shard CSVs (a header each) read as one, and the summary sets them beside
    /// the thesis.
    #[test]
    fn means_of_concatenated_csvs_and_the_summary() {
        let h = super::super::dynamic::CSV_HEADER;
        let csv = format!(
            "{h}\nastar,room,128,2,0,true,300,30,60000,2.0,70\nastar,room,128,2,1,true,302,30,62000,2.5,72\n{h}\ndstar-lite,room,128,2,0,false,310,31,12000,0.5,25\n"
        );
        let m = means(&csv).unwrap();
        let a = &m[&("room-128-2".to_string(), "astar".to_string())];
        assert_eq!((a.runs, a.length, a.nodes), (2, 301.0, 61000.0));
        let d = &m[&("room-128-2".to_string(), "dstar-lite".to_string())];
        assert_eq!(d.success, 0.0);
        let text = summary(&m, 20.0);
        assert!(
            text.contains("### Table A.1: Room 128, 2% (2 runs)"),
            "{text}"
        );
        assert!(
            text.contains("| astar | 100% | 301 / 301 +0% | 61000 / 62910 -3% |"),
            "{text}"
        );
        assert!(means("astar,room\n").is_err());
        let f = findings(&m, 20.0);
        assert!(
            f.contains("- astar: travelled length within 20% (128 and 256): holds in 1 of 1"),
            "{f}"
        );
        assert!(
            f.contains(
                "D* Lite recomputes faster than A* at 2% and slower at 20%: holds in 1 of 1"
            ),
            "{f}"
        );
    }
}

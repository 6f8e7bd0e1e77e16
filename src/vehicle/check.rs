//! Whether a path can be driven: each step replayed through the physics, independently of how
//! the search made it. From each pose to the next, the heading change gives the arc, which must
//! end where the next pose is; the speed change over the arc gives the acceleration, which must
//! lie within the limits; the arc's radius must be no tighter than the turning radius, nor than
//! the lateral limit allows at the step's higher speed; the speed stays within 0 and the top
//! speed; the arc stays on free ground; and the step's time is what the physics says.

use super::search::Arrival;
use crate::car::model::{along, drive, turn_between, Model};

/// Slack for float rounding in every comparison.
const EPS: f64 = 1e-6;

/// `Ok` when every step of `path` (start first) is drivable by `model`'s vehicle, else the
/// first step that is not and why.
pub fn drivable(model: &Model, path: &[Arrival]) -> Result<(), String> {
    let veh = &model.vehicle;
    let s = model.grid.cell;
    if let Some(first) = path.first() {
        if !model.free(first.pose.x, first.pose.y) {
            return Err("the start is not on free ground".into());
        }
    }
    for (i, w) in path.windows(2).enumerate() {
        let (a, b) = (&w[0].pose, &w[1].pose);
        let step = |why: String| Err(format!("step {}: {why}", i + 1));
        let turn = turn_between(a.phi, b.phi);
        let end = along(*a, s, turn);
        if (end.x - b.x).hypot(end.y - b.y) > EPS {
            return step(format!(
                "the arc from ({:.3}, {:.3}) ends at ({:.3}, {:.3}), not at ({:.3}, {:.3})",
                a.x, a.y, end.x, end.y, b.x, b.y
            ));
        }
        if b.v < -EPS || b.v > veh.max_speed + EPS {
            return step(format!(
                "speed {:.3} m/s is outside 0 to {}",
                b.v, veh.max_speed
            ));
        }
        let accel = (b.v * b.v - a.v * a.v) / (2.0 * s);
        if accel > veh.accel + EPS || accel < -veh.decel - EPS {
            return step(format!("accelerates at {accel:.3} m/s²"));
        }
        if a.v <= EPS && b.v <= EPS {
            return step("stands still".into());
        }
        let top = a.v.max(b.v);
        if turn.abs() > EPS {
            let r = s / turn.abs();
            if r < veh.turning_radius - EPS {
                return step(format!(
                    "turns on radius {r:.3} m, under {}",
                    veh.turning_radius
                ));
            }
            if veh.lateral > 0.0 && top * top / r > veh.lateral + EPS {
                return step(format!(
                    "turns at {:.3} m/s² sideways, over {}",
                    top * top / r,
                    veh.lateral
                ));
            }
        }
        if !model.arc_free(*a, s, turn) {
            return step("drives into an obstacle".into());
        }
        // The time the physics gives for this speed change over one cell.
        let Some(act) = w[1].action else {
            return step("has no action".into());
        };
        let Some((t, v)) = drive(s, a.v, act.accel, veh.max_speed) else {
            return step("its action cannot cover the cell".into());
        };
        let dt = w[1].g - w[0].g;
        if (v - b.v).abs() > EPS || (t - dt).abs() > EPS {
            return step(format!(
                "takes {dt:.4} s to reach {:.3} m/s; the physics says {t:.4} s and {v:.3} m/s",
                b.v
            ));
        }
    }
    Ok(())
}

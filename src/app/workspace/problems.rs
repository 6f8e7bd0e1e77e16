//! The problems of an opened `.scen`: a filtered, sorted list that draws only its visible rows
//! (Berlin_0_1024 has 3,850 problems), the chosen one highlighted, and how the active run
//! compares with the problem's optimal length.

use crate::app::PathlabApp;
use crate::map::io::Problem;
use eframe::egui::{self, RichText};

/// How the list is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// As in the file (bucket order).
    #[default]
    File,
    Shortest,
    Longest,
}

/// What the user set on the list, and the rows it leaves (cached: filtering and sorting
/// thousands of problems every frame would cost the frame).
#[derive(Default)]
pub struct ProblemList {
    /// `12` (id 12), `b3` (bucket 3), or empty for all.
    pub filter: String,
    pub order: Order,
    /// Index in the document's problems of the problem last chosen.
    pub chosen: Option<usize>,
    rows: Option<(RowsKey, Vec<usize>)>,
}

/// What the cached rows were computed from.
type RowsKey = (String, Order, usize, u64);

/// What a filter asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Filter {
    All,
    Id(usize),
    Bucket(u32),
    Bad,
}

fn parse_filter(f: &str) -> Filter {
    let f = f.trim().trim_start_matches('#');
    if f.is_empty() {
        return Filter::All;
    }
    let lower = f.to_ascii_lowercase();
    if let Some(b) = lower
        .strip_prefix("bucket")
        .or_else(|| lower.strip_prefix('b'))
    {
        return b.trim().parse().map_or(Filter::Bad, Filter::Bucket);
    }
    f.parse().map_or(Filter::Bad, Filter::Id)
}

/// Indices of `problems` that pass `filter`, in `order`.
pub fn rows(problems: &[Problem], filter: &str, order: Order) -> Vec<usize> {
    let mut v: Vec<usize> = match parse_filter(filter) {
        Filter::All => (0..problems.len()).collect(),
        Filter::Id(i) => (i < problems.len()).then_some(i).into_iter().collect(),
        Filter::Bucket(b) => (0..problems.len())
            .filter(|&i| problems[i].bucket == b)
            .collect(),
        Filter::Bad => vec![],
    };
    match order {
        Order::File => {}
        Order::Shortest => v.sort_by(|&a, &b| problems[a].optimal.total_cmp(&problems[b].optimal)),
        Order::Longest => v.sort_by(|&a, &b| problems[b].optimal.total_cmp(&problems[a].optimal)),
    }
    v
}

/// Font size of the problem rows: small enough that a row fits the panel's default width.
const ROW_FONT: f32 = 12.0;

/// One row's text. ASCII arrows: the default fonts have no glyph for U+2192.
fn row_text(i: usize, p: &Problem) -> String {
    format!(
        "#{i}  {:.3}  b{}  ({},{})->({},{})",
        p.optimal, p.bucket, p.start.0, p.start.1, p.goal.0, p.goal.1
    )
}

/// The scenario section of the left panel.
pub(in crate::app) fn show(app: &mut PathlabApp, ui: &mut egui::Ui) {
    let n = app.work.doc.problems.len();
    egui::CollapsingHeader::new(format!("Scenario ({n} problems)"))
        .id_salt("scenario")
        .default_open(true)
        .show(ui, |ui| {
            let l = ui.label("show");
            ui.add(
                egui::TextEdit::singleline(&mut app.problems.filter)
                    .hint_text("all, an id, or b12 for bucket 12")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(l.id)
            .on_hover_text("Show one problem by its id, or every problem of a bucket");
            egui::ComboBox::from_label("order")
                .selected_text(match app.problems.order {
                    Order::File => "file order",
                    Order::Shortest => "shortest first",
                    Order::Longest => "longest first",
                })
                .show_ui(ui, |ui| {
                    let o = &mut app.problems.order;
                    ui.selectable_value(o, Order::File, "file order");
                    ui.selectable_value(o, Order::Shortest, "shortest first");
                    ui.selectable_value(o, Order::Longest, "longest first");
                });
            let list = &mut app.problems;
            let key: RowsKey = (list.filter.clone(), list.order, n, app.work.doc_serial);
            if list.rows.as_ref().is_none_or(|r| r.0 != key) {
                list.rows = Some((
                    key.clone(),
                    rows(&app.work.doc.problems, &list.filter, list.order),
                ));
            }
            let shown = &list.rows.as_ref().expect("set above").1;
            if shown.is_empty() {
                ui.label(RichText::new("No problem matches the filter.").weak());
            } else if shown.len() < n {
                ui.label(RichText::new(format!("{} of {n} shown", shown.len())).small());
            }
            // One line per row (show_rows needs a fixed height): a row too long for the panel
            // is cut at its end, where the coordinates are (a horizontal scroll bar would sit
            // over the rows).
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            let row_h =
                ROW_FONT + ui.spacing().button_padding.y * 2.0 + ui.spacing().item_spacing.y;
            let mut pick = None;
            egui::ScrollArea::vertical()
                .max_height(240.0)
                .id_salt("problems")
                .auto_shrink([false, true])
                .show_rows(ui, row_h, shown.len(), |ui, range| {
                    // Only the rows in view are laid out.
                    for &i in &shown[range] {
                        let p = &app.work.doc.problems[i];
                        let text = RichText::new(row_text(i, p)).size(ROW_FONT);
                        if ui
                            .selectable_label(list.chosen == Some(i), text)
                            .on_hover_text(format!(
                                "Search this problem: ({}, {}) to ({}, {}), bucket {}, \
                                 optimal length {:.3}",
                                p.start.0, p.start.1, p.goal.0, p.goal.1, p.bucket, p.optimal
                            ))
                            .clicked()
                        {
                            pick = Some(i);
                        }
                    }
                });
            if let Some(i) = pick {
                app.choose_problem(i);
            }
            if let Some(i) = app.problems.chosen.filter(|&i| i < n) {
                let p = &app.work.doc.problems[i];
                let verdict = app.active_view().and_then(|v| {
                    let c = v.run.cost()?;
                    Some(if p.is_optimal(c) {
                        format!("{} cost {c:.3}: optimal", v.run.choice.info.title)
                    } else {
                        format!(
                            "{} cost {c:.3}: {:+.3} from optimal",
                            v.run.choice.info.title,
                            c - p.optimal
                        )
                    })
                });
                ui.label(
                    RichText::new(format!(
                        "#{i}: optimal {:.3}{}",
                        p.optimal,
                        verdict.map_or(String::new(), |v| format!("; {v}"))
                    ))
                    .small(),
                );
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(bucket: u32, optimal: f64) -> Problem {
        Problem {
            bucket,
            map: "m.map".into(),
            map_width: 10,
            map_height: 10,
            start: (0, 0),
            goal: (1, 1),
            optimal,
            tolerance: 0.0,
            line: 0,
        }
    }

    #[test]
    fn filters_by_id_and_bucket_and_sorts_by_length() {
        let v = vec![p(0, 3.0), p(0, 1.0), p(1, 5.0), p(1, 2.0)];
        assert_eq!(rows(&v, "", Order::File), vec![0, 1, 2, 3]);
        assert_eq!(rows(&v, "2", Order::File), vec![2]);
        assert_eq!(rows(&v, "#3", Order::File), vec![3]);
        assert_eq!(rows(&v, "9", Order::File), Vec::<usize>::new());
        assert_eq!(rows(&v, "b1", Order::File), vec![2, 3]);
        assert_eq!(rows(&v, "bucket 0", Order::Longest), vec![0, 1]);
        assert_eq!(rows(&v, "", Order::Shortest), vec![1, 3, 0, 2]);
        assert_eq!(rows(&v, "x", Order::File), Vec::<usize>::new());
    }
}

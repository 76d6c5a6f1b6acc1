//! `damiera analyse --plot`: the evaluation over a game as an SVG chart (plotters' SVG
//! backend: text is left to the SVG viewer, so no fonts are needed here).

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::game::pdn::PdnGame;
use crate::review::{CLIP, Marks, PlyVerdict, curve};

use super::CliError;
use super::output::TempFile;
/// Chart size in pixels.
const SIZE: (u32, u32) = (900, 420);

/// Where the charts go: one file (for one game), or a directory (one file per game).
pub enum Target {
    /// A single `.svg` file, opened for writing.
    File(TempFile),
    /// A directory, created if needed; the charts are `game-N.svg`.
    Dir(PathBuf),
}

impl Target {
    /// Checks that the charts of `games` games can be written to `path`: a name ending
    /// in `.svg` is one file (and needs exactly one game), anything else a directory.
    pub fn prepare(path: &Path, games: usize) -> Result<Target, CliError> {
        let is_svg = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        if is_svg && !path.is_dir() {
            if games != 1 {
                return Err(CliError(format!(
                    "--plot {}: {games} games need a directory, not one .svg file",
                    path.display()
                )));
            }
            return TempFile::create(path).map(Target::File);
        }
        std::fs::create_dir_all(path)
            .map_err(|e| CliError(format!("cannot create directory {}: {e}", path.display())))?;
        // Fail now rather than after the analysis if nothing can be written there.
        drop(TempFile::create(&chart_path(path, 1))?);
        Ok(Target::Dir(path.to_path_buf()))
    }

    /// Writes the charts, each with its game's number in the file (`game-N.svg`).
    pub fn write(self, charts: &[(usize, String)]) -> Result<(), CliError> {
        match self {
            Target::File(mut file) => {
                for (_, chart) in charts {
                    file.write_all(chart.as_bytes())?;
                }
                file.commit()
            }
            Target::Dir(dir) => charts.iter().try_for_each(|(number, chart)| {
                let mut file = TempFile::create(&chart_path(&dir, *number))?;
                file.write_all(chart.as_bytes())?;
                file.commit()
            }),
        }
    }
}

fn chart_path(dir: &Path, game: usize) -> PathBuf {
    dir.join(format!("game-{game}.svg"))
}

/// The title: players and result from the tags.
fn title(game: &PdnGame) -> String {
    let white = game.tag("White").unwrap_or("White");
    let black = game.tag("Black").unwrap_or("Black");
    let result = game.result.as_deref().unwrap_or("*");
    format!("{white} - {black}  {result}")
}

/// The chart of one game as SVG text: the curve, mistakes (orange) and blunders (red)
/// marked on it, players and result in the title.
pub fn svg(game: &PdnGame, verdicts: &[PlyVerdict], marks: Marks) -> Result<String, CliError> {
    let mut text = String::new();
    draw(&mut text, game, verdicts, marks)
        .map_err(|e| CliError(format!("cannot draw the chart: {e}")))?;
    Ok(text)
}

fn draw(
    text: &mut String,
    game: &PdnGame,
    verdicts: &[PlyVerdict],
    marks: Marks,
) -> Result<(), Box<dyn std::error::Error>> {
    let points = curve(verdicts);
    let root = SVGBackend::with_string(text, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let plies = verdicts.len().max(1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title(game), ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..plies, -CLIP..CLIP)?;
    chart
        .configure_mesh()
        .x_desc("ply")
        .y_desc("men, White's view")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:+.1}"))
        .draw()?;
    chart.draw_series(LineSeries::new(
        points.iter().copied(),
        BLUE.stroke_width(2),
    ))?;
    let marked = points.iter().skip(1).zip(verdicts).filter_map(|(&p, v)| {
        let colour = match marks.glyph(v.loss)? {
            "??" => RED,
            _ => RGBColor(255, 140, 0),
        };
        Some(Circle::new(p, 5, colour.filled()))
    });
    chart.draw_series(marked)?;
    root.present()?;
    Ok(())
}

//! A drawing backend that paints nothing and keeps every call it gets, and [`replay`], which makes
//! them again on another backend: the page's canvases record a batch chart's part under its data
//! and its part over it ([`super::Layer`]), replay the part over, and replay the part under only
//! when its record differs from the one their kept bitmap was painted from
//! (`crate::ui::canvas::layers`). Text sizes come from the backend it is wrapped in or its own
//! estimate (the canvas wraps it in its text measurer). Drawing through a recording also keeps one
//! copy of the charts' generic drawing code in the page's wasm, for this backend alone.

use std::cell::RefCell;
use std::rc::Rc;

use plotters_backend::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontFamily,
    FontStyle, FontTransform,
};

/// A colour: (red, green, blue) and alpha.
pub type Paint = ((u8, u8, u8), f64);
/// A colour and a stroke width.
pub type Stroke = (Paint, u32);

/// A text's look: family, size, style name, colour, anchor (horizontal, vertical) and rotation,
/// each as a plain value.
#[derive(Clone, Debug, PartialEq)]
pub struct Font {
    pub family: String,
    pub size: f64,
    pub style: String,
    pub color: Paint,
    pub anchor: (u8, u8),
    pub quarter_turns: u8,
}

/// One drawing call, with everything it was given.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    Pixel(BackendCoord, Paint),
    Line(BackendCoord, BackendCoord, Stroke),
    Rect(BackendCoord, BackendCoord, Stroke, bool),
    Path(Vec<BackendCoord>, Stroke),
    Circle(BackendCoord, u32, Stroke, bool),
    Polygon(Vec<BackendCoord>, Stroke),
    Text(String, Font, BackendCoord),
    Bitmap(BackendCoord, (u32, u32), Vec<u8>),
}

/// The calls made on a [`Recording`], in order; the recorder keeps a handle on them while the
/// drawing area owns the backend.
pub type Calls = Rc<RefCell<Vec<Call>>>;

/// The backend: a surface of `size` pixels and the calls made on it.
pub struct Recording {
    size: (u32, u32),
    calls: Calls,
}

impl Recording {
    /// A surface of `size` pixels, and the handle its calls arrive in.
    pub fn new(size: (u32, u32)) -> (Recording, Calls) {
        let calls = Calls::default();
        (Recording { size, calls: calls.clone() }, calls)
    }

    fn keep(&mut self, call: Call) -> Kept {
        self.calls.borrow_mut().push(call);
        Ok(())
    }
}

fn paint(color: BackendColor) -> Paint {
    (color.rgb, color.alpha)
}

fn stroke(style: &impl BackendStyle) -> Stroke {
    (paint(style.color()), style.stroke_width())
}

fn font(style: &impl BackendTextStyle) -> Font {
    let anchor = style.anchor();
    let h = match anchor.h_pos {
        HPos::Left => 0,
        HPos::Right => 1,
        HPos::Center => 2,
    };
    let v = match anchor.v_pos {
        VPos::Top => 0,
        VPos::Center => 1,
        VPos::Bottom => 2,
    };
    let quarter_turns = match style.transform() {
        FontTransform::None => 0,
        FontTransform::Rotate90 => 1,
        FontTransform::Rotate180 => 2,
        FontTransform::Rotate270 => 3,
    };
    Font {
        family: style.family().as_str().to_owned(),
        size: style.size(),
        style: style.style().as_str().to_owned(),
        color: paint(style.color()),
        anchor: (h, v),
        quarter_turns,
    }
}

type Kept = Result<(), DrawingErrorKind<std::convert::Infallible>>;

impl DrawingBackend for Recording {
    type ErrorType = std::convert::Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> Kept {
        Ok(())
    }
    fn present(&mut self) -> Kept {
        Ok(())
    }
    fn draw_pixel(&mut self, at: BackendCoord, color: BackendColor) -> Kept {
        self.keep(Call::Pixel(at, paint(color)))
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Kept {
        self.keep(Call::Line(from, to, stroke(style)))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Kept {
        self.keep(Call::Rect(ul, br, stroke(style), fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Kept {
        self.keep(Call::Path(path.into_iter().collect(), stroke(style)))
    }
    fn draw_circle<S: BackendStyle>(&mut self, at: BackendCoord, radius: u32, style: &S, fill: bool) -> Kept {
        self.keep(Call::Circle(at, radius, stroke(style), fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Kept {
        self.keep(Call::Polygon(vert.into_iter().collect(), stroke(style)))
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, at: BackendCoord) -> Kept {
        self.keep(Call::Text(text.to_owned(), font(style), at))
    }
    fn blit_bitmap(&mut self, at: BackendCoord, size: (u32, u32), src: &[u8]) -> Kept {
        self.keep(Call::Bitmap(at, size, src.to_vec()))
    }
}

/// A recorded stroke, as a backend reads one.
struct Pen(Stroke);

impl BackendStyle for Pen {
    fn color(&self) -> BackendColor {
        let ((rgb, alpha), _) = self.0;
        BackendColor { rgb, alpha }
    }
    fn stroke_width(&self) -> u32 {
        self.0 .1
    }
}

impl BackendTextStyle for Font {
    /// A recorded font has no glyphs: it is replayed on backends that lay text out themselves.
    type FontError = std::fmt::Error;

    fn color(&self) -> BackendColor {
        let (rgb, alpha) = self.color;
        BackendColor { rgb, alpha }
    }
    fn size(&self) -> f64 {
        self.size
    }
    fn transform(&self) -> FontTransform {
        [FontTransform::None, FontTransform::Rotate90, FontTransform::Rotate180, FontTransform::Rotate270]
            [usize::from(self.quarter_turns % 4)]
        .clone()
    }
    fn style(&self) -> FontStyle {
        FontStyle::from(self.style.as_str())
    }
    fn anchor(&self) -> Pos {
        let h = [HPos::Left, HPos::Right, HPos::Center][usize::from(self.anchor.0.min(2))];
        let v = [VPos::Top, VPos::Center, VPos::Bottom][usize::from(self.anchor.1.min(2))];
        Pos::new(h, v)
    }
    fn family(&self) -> FontFamily<'_> {
        FontFamily::from(self.family.as_str())
    }
    fn layout_box(&self, _: &str) -> Result<((i32, i32), (i32, i32)), std::fmt::Error> {
        Err(std::fmt::Error)
    }
    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        _: &str,
        _: BackendCoord,
        _: F,
    ) -> Result<Result<(), E>, std::fmt::Error> {
        Err(std::fmt::Error)
    }
}

/// Makes `calls` again, in order, on `backend`: what drawing them there directly would have made.
/// Presenting the backend is the caller's (a canvas backend presents when dropped).
pub fn replay<DB: DrawingBackend>(
    calls: &[Call],
    backend: &mut DB,
) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
    for call in calls {
        match call {
            Call::Pixel(at, (rgb, alpha)) => {
                backend.draw_pixel(*at, BackendColor { rgb: *rgb, alpha: *alpha })?
            }
            Call::Line(from, to, pen) => backend.draw_line(*from, *to, &Pen(*pen))?,
            Call::Rect(ul, br, pen, fill) => backend.draw_rect(*ul, *br, &Pen(*pen), *fill)?,
            Call::Path(path, pen) => backend.draw_path(path.iter().copied(), &Pen(*pen))?,
            Call::Circle(at, radius, pen, fill) => backend.draw_circle(*at, *radius, &Pen(*pen), *fill)?,
            Call::Polygon(vert, pen) => backend.fill_polygon(vert.iter().copied(), &Pen(*pen))?,
            Call::Text(text, font, at) => backend.draw_text(text, font, *at)?,
            Call::Bitmap(at, size, src) => backend.blit_bitmap(*at, *size, src)?,
        }
    }
    Ok(())
}

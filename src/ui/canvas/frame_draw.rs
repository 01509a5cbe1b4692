//! When a chart canvas redraws: at most once per animation frame with the latest data, only while
//! it is in view (IntersectionObserver), and at once when its box resizes (ResizeObserver, which
//! reports after layout and before paint, so a resized canvas is never shown blank or stretched).
//!
//! A change marks the canvas dirty and asks for one requestAnimationFrame; any number of changes
//! before that frame cost one draw. Chromium dispatches a dragged thumb's input at the start of a
//! frame, before its rAF callbacks, so the frame that handles the input also draws it. A canvas out
//! of view stays dirty and draws once, in the frame after it comes back. Each draw adds one to the
//! canvas's `data-draws` attribute (tests count draws with it).

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Draws the canvas at its CSS box size (width, height), reading the data untracked; false when
/// there was nothing to draw (no data yet).
type DrawFn = Box<dyn Fn(&HtmlCanvasElement, (f64, f64)) -> bool>;

/// Observers and the frame callback of one attached canvas; disconnected when dropped.
struct Attached {
    canvas: HtmlCanvasElement,
    resize: web_sys::ResizeObserver,
    visibility: web_sys::IntersectionObserver,
    _on_resize: Closure<dyn FnMut(js_sys::Array)>,
    _on_visibility: Closure<dyn FnMut(js_sys::Array)>,
}

/// One canvas's redraw state.
struct Redraw {
    draw: DrawFn,
    attached: RefCell<Option<Attached>>,
    on_frame: Closure<dyn FnMut(f64)>,
    /// The CSS box as the ResizeObserver last reported it; (0, 0) until then.
    css: Cell<(f64, f64)>,
    /// The IntersectionObserver's last word; `None` (not reported yet) counts as in view.
    in_view: Cell<Option<bool>>,
    dirty: Cell<bool>,
    frame_request: Cell<Option<i32>>,
    draws: Cell<u32>,
}

thread_local! {
    /// Attached canvases with their element ids (empty when none), so an export can bring one up to
    /// date first and a change applied in a frame callback can draw them all in that frame.
    static ATTACHED: RefCell<Vec<(String, Weak<Redraw>)>> = const { RefCell::new(Vec::new()) };
}

/// A handle on a canvas's redraws; copy it into effects. Dropped with the component that made it.
#[derive(Clone, Copy)]
pub struct FrameDraw(StoredValue<Rc<Redraw>, LocalStorage>);

impl FrameDraw {
    /// Redraws `canvas_ref`'s canvas with `draw` (see the module documentation) once it is mounted.
    pub fn new(
        canvas_ref: NodeRef<Canvas>,
        draw: impl Fn(&HtmlCanvasElement, (f64, f64)) -> bool + 'static,
    ) -> FrameDraw {
        let redraw = Rc::new_cyclic(|weak: &Weak<Redraw>| {
            let weak = weak.clone();
            Redraw {
                draw: Box::new(draw),
                attached: RefCell::new(None),
                on_frame: Closure::new(move |_: f64| {
                    if let Some(r) = weak.upgrade() {
                        r.frame_request.set(None);
                        r.flush();
                    }
                }),
                css: Cell::new((0.0, 0.0)),
                in_view: Cell::new(None),
                dirty: Cell::new(true),
                frame_request: Cell::new(None),
                draws: Cell::new(0),
            }
        });
        let handle = FrameDraw(StoredValue::new_local(redraw));
        Effect::new(move |attached: Option<bool>| {
            let Some(canvas) = canvas_ref.get() else { return false };
            attached.unwrap_or(false) || handle.0.try_with_value(|r| attach(r, canvas)).unwrap_or(false)
        });
        handle
    }

    /// The data changed: draw in the coming frame (or when the canvas is next in view).
    pub fn invalidate(self) {
        self.0.try_with_value(|r| {
            r.dirty.set(true);
            r.schedule();
        });
    }
}

/// Brings the canvas with element id `id` up to date now if a draw is pending (before an export
/// reads its pixels); no-op for an unknown id.
pub fn flush_canvas(id: &str) {
    let found = ATTACHED.with(|all| {
        all.borrow().iter().find(|(i, _)| !i.is_empty() && i == id).and_then(|(_, r)| r.upgrade())
    });
    if let Some(redraw) = found {
        redraw.flush();
    }
}

/// Draws now every canvas that asked for a frame, in place of that frame's callback. For a change
/// applied inside an animation frame callback (`ui::widgets::drag`): the canvases it dirtied asked
/// for the next frame, since callbacks asked for during a frame's callbacks wait for the next one.
pub fn flush_requested() {
    let all: Vec<Rc<Redraw>> =
        ATTACHED.with(|all| all.borrow().iter().filter_map(|(_, r)| r.upgrade()).collect());
    for redraw in all {
        if let Some(request) = redraw.frame_request.take() {
            if let Some(window) = web_sys::window() {
                let _ = window.cancel_animation_frame(request);
            }
            redraw.flush();
        }
    }
}

impl Redraw {
    /// Asks for a frame if dirty, in view and none is asked for yet.
    fn schedule(&self) {
        let ready =
            self.dirty.get() && self.in_view.get() != Some(false) && self.frame_request.get().is_none();
        if !ready || self.attached.borrow().is_none() {
            return;
        }
        let window = web_sys::window();
        let request =
            window.and_then(|w| w.request_animation_frame(self.on_frame.as_ref().unchecked_ref()).ok());
        self.frame_request.set(request);
    }

    /// Draws now if dirty and the canvas has a box; counts the draw.
    fn flush(&self) {
        let (w, h) = self.css.get();
        let attached = self.attached.borrow();
        let Some(canvas) = attached.as_ref().map(|a| &a.canvas) else { return };
        if !self.dirty.get() || w < 1.0 || h < 1.0 {
            return;
        }
        self.dirty.set(false);
        if !(self.draw)(canvas, (w, h)) {
            return;
        }
        self.draws.set(self.draws.get() + 1);
        let _ = canvas.set_attribute("data-draws", &self.draws.get().to_string());
    }

    /// A new box: draw at once (this is the frame that lays it out), unless out of view.
    fn resized(&self, css: (f64, f64)) {
        if self.css.get() == css {
            return;
        }
        self.css.set(css);
        self.dirty.set(true);
        if self.in_view.get() != Some(false) {
            self.flush();
        }
    }

    /// Into or out of view; coming into view draws what changed meanwhile in the next frame.
    fn seen(&self, in_view: bool) {
        self.in_view.set(Some(in_view));
        self.schedule();
    }
}

impl Drop for Redraw {
    fn drop(&mut self) {
        if let (Some(id), Some(window)) = (self.frame_request.get(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
        if let Some(a) = self.attached.get_mut().take() {
            a.resize.disconnect();
            a.visibility.disconnect();
        }
    }
}

/// Starts observing `canvas`'s box and visibility; true once attached.
fn attach(redraw: &Rc<Redraw>, canvas: HtmlCanvasElement) -> bool {
    let weak = Rc::downgrade(redraw);
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let last =
            entries.iter().filter_map(|e| e.dyn_into::<web_sys::ResizeObserverEntry>().ok()).next_back();
        if let (Some(rect), Some(r)) = (last.map(|e| e.content_rect()), weak.upgrade()) {
            r.resized((rect.width(), rect.height()));
        }
    });
    let weak = Rc::downgrade(redraw);
    let on_visibility = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let last = entries
            .iter()
            .filter_map(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            .next_back();
        if let (Some(entry), Some(r)) = (last, weak.upgrade()) {
            r.seen(entry.is_intersecting());
        }
    });
    let Ok(resize) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else { return false };
    // A margin, so a chart scrolled towards is drawn just before it shows.
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin("200px 0px");
    let visibility =
        web_sys::IntersectionObserver::new_with_options(on_visibility.as_ref().unchecked_ref(), &options);
    let Ok(visibility) = visibility else { return false };
    resize.observe(&canvas);
    visibility.observe(&canvas);
    ATTACHED.with(|all| {
        let mut all = all.borrow_mut();
        all.retain(|(_, r)| r.strong_count() > 0);
        all.push((canvas.id(), Rc::downgrade(redraw)));
    });
    *redraw.attached.borrow_mut() =
        Some(Attached { canvas, resize, visibility, _on_resize: on_resize, _on_visibility: on_visibility });
    redraw.schedule();
    true
}

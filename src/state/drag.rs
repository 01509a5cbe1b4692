//! A slider drag as the batch charts see it: a closed set of pointer events and the batch axis they
//! hold, so while a pointer drags a slider the axis stays where it was and the knee moves on screen.

/// What a slider's pointer did. Keyboard steps send neither, so they rescale at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DragEvent {
    /// A pointer went down on a slider (`pointerdown`).
    Press,
    /// The drag ended: the slider's `change`, or the pointer went up or was cancelled anywhere.
    Release,
}

/// The batch axis end held while a slider is dragged; `None` when nothing is being dragged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxisHold(Option<u32>);

impl AxisHold {
    /// The hold after `event`, with `axis_now` the axis the charts show as it happens: a press holds
    /// it (a second press keeps the first hold), a release lets go.
    pub fn after(self, event: DragEvent, axis_now: u32) -> AxisHold {
        match event {
            DragEvent::Press => AxisHold(Some(self.0.unwrap_or(axis_now))),
            DragEvent::Release => AxisHold(None),
        }
    }

    /// The axis end to draw: the held one during a drag, else `free` (the one the state asks for).
    pub fn axis(self, free: u32) -> u32 {
        self.0.unwrap_or(free)
    }

    /// Whether a drag holds the axis.
    pub fn is_held(self) -> bool {
        self.0.is_some()
    }

    /// Whether a section follows each change as it happens: always, except while a drag holds the
    /// axis and the section is known to be out of view (`in_view` `None`, not reported yet, counts
    /// as in view). A section that does not follow catches up when this turns true.
    pub fn shows_live(self, in_view: Option<bool>) -> bool {
        !self.is_held() || in_view != Some(false)
    }
}

package dev.scorecast.engine.live;

/** Where a change takes effect: the bar line's bar number, beat and (at the current tempo) frame and seconds. */
public record AppliesAt(long bar, double beat, long frame, double seconds) {}

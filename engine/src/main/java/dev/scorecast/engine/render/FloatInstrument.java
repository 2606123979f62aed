package dev.scorecast.engine.render;

import com.sun.media.sound.ModelInstrument;
import com.sun.media.sound.ModelPerformer;
import javax.sound.midi.Patch;

/**
 * A SoundFont instrument whose performers (zones) are built once and play {@link FloatWavetable}s.
 * Gervill's SF2 instrument builds new performers on every call, each reading the 16-bit sample
 * bytes; this one hands every synthesizer the same performers over the same float samples.
 */
final class FloatInstrument extends ModelInstrument {
    private final ModelInstrument original;
    private final ModelPerformer[] performers;

    FloatInstrument(ModelInstrument original, ModelPerformer[] performers) {
        this(original, performers, original.getPatch());
    }

    /** The instrument answering to {@code patch}: a bank of the library re-addressed to its Scorecast bank number. */
    FloatInstrument(ModelInstrument original, ModelPerformer[] performers, Patch patch) {
        super(original.getSoundbank(), patch, original.getName(), original.getDataClass());
        this.original = original;
        this.performers = performers;
    }

    @Override
    public ModelPerformer[] getPerformers() {
        return performers.clone();
    }

    @Override
    public Object getData() {
        return original.getData();
    }
}

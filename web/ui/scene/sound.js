// Short sounds for the animated turn, synthesized with Web Audio (no files): off until the player
// turns them on (the setting is the shell's to remember). One tone shape per kind of step.

const TONES = {
  flight: { from: 520, to: 880, ms: 140, type: 'triangle' },
  hit: { from: 180, to: 90, ms: 160, type: 'square' },
  stop: { from: 1200, to: 1100, ms: 90, type: 'sine' },
  death: { from: 400, to: 80, ms: 420, type: 'sawtooth' },
  appear: { from: 300, to: 600, ms: 220, type: 'sine' },
};

/** createSound() -> play(step): a tone for the step's kind (none for the others); its AudioContext is made on first use. */
export function createSound() {
  const state = { ctx: null };
  return (step) => {
    const tone = TONES[step.kind];
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!tone || !Context) return;
    if (!state.ctx) state.ctx = new Context();
    const { ctx } = state;
    const now = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = tone.type;
    osc.frequency.setValueAtTime(tone.from, now);
    osc.frequency.exponentialRampToValueAtTime(tone.to, now + tone.ms / 1000);
    gain.gain.setValueAtTime(0.08, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + tone.ms / 1000);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + tone.ms / 1000 + 0.02);
  };
}

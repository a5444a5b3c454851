// Music and sound effects synthesized with the Web Audio API: oscillators and gains, no audio files.
// Browsers let a page make sound only after a user gesture, so nothing starts before unlock().
// Graph: each note -> its envelope -> music or effects bus -> master (volume) -> speakers.

const MELODY = [196, 0, 246.94, 293.66, 0, 369.99]; // Hz; 0 is a rest
const STEP_MS = 330;

export class Sound {
  constructor(settings) {
    this.settings = settings;
    this.context = null;
    this.step = 0;
    this.timer = 0;
    this.over = false;
    settings.onChange(() => this.update());
    document.addEventListener("visibilitychange", () => this.update());
  }

  // Call from a user gesture (key press, click, touch).
  unlock() {
    if (!this.context) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      this.context = new Context();
      this.master = this.context.createGain();
      this.master.connect(this.context.destination);
      this.music = this.bus();
      this.effects = this.bus();
      this.context.onstatechange = () => this.update();
    }
    if (this.context.state === "suspended") this.context.resume().catch(() => {});
    this.update();
  }

  bus() {
    const gain = this.context.createGain();
    gain.connect(this.master);
    return gain;
  }

  // The music plays while the game runs; it stops when the game ends and starts over with the next one.
  gameOver(over) {
    if (over === this.over) return;
    this.over = over;
    if (!over) this.step = 0;
    this.update();
  }

  get running() {
    return this.context?.state === "running";
  }

  update() {
    if (!this.context) return;
    const { music, effects, muted, volume } = this.settings.values;
    const now = this.context.currentTime;
    this.master.gain.setTargetAtTime(muted ? 0 : (volume / 100) ** 2, now, 0.02);
    this.music.gain.setTargetAtTime(music ? 1 : 0, now, 0.02);
    this.effects.gain.setTargetAtTime(effects ? 1 : 0, now, 0.02);
    const play = this.running && music && !muted && !this.over && !document.hidden;
    if (play && !this.timer) {
      this.tick();
      this.timer = setInterval(() => this.tick(), STEP_MS);
    } else if (!play && this.timer) {
      // Paused, not reset: a hidden tab resumes the loop where it left off.
      clearInterval(this.timer);
      this.timer = 0;
    }
  }

  tick() {
    const frequency = MELODY[this.step++ % MELODY.length];
    if (frequency) this.tone(this.music, frequency, 0.34, "triangle", 0.08);
  }

  tone(bus, frequency, seconds, type, peak, delay = 0, slideTo = 0) {
    const start = this.context.currentTime + delay;
    const osc = this.context.createOscillator();
    const envelope = this.context.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(frequency, start);
    if (slideTo) osc.frequency.exponentialRampToValueAtTime(slideTo, start + seconds);
    envelope.gain.setValueAtTime(0.0001, start);
    envelope.gain.exponentialRampToValueAtTime(peak, start + 0.012);
    envelope.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
    osc.connect(envelope).connect(bus);
    osc.start(start);
    osc.stop(start + seconds + 0.02);
  }

  // name: move, merge (with the largest new tile), invalid, win, over.
  effect(name, tileValue = 0) {
    const { effects, muted } = this.settings.values;
    if (!this.running || !effects || muted) return;
    const fx = this.effects;
    if (name === "move") this.tone(fx, 240, 0.07, "sine", 0.12, 0, 180);
    else if (name === "merge") {
      // Bigger tiles ring higher: a whole tone per doubling.
      const base = 330 * 2 ** ((Math.log2(tileValue) - 2) / 6);
      this.tone(fx, base, 0.16, "triangle", 0.2);
      this.tone(fx, base * 1.5, 0.12, "sine", 0.08, 0.03);
    } else if (name === "invalid") this.tone(fx, 140, 0.1, "square", 0.05, 0, 100);
    else if (name === "win") [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => this.tone(fx, f, 0.3, "triangle", 0.2, i * 0.12));
    else if (name === "over") [392, 329.63, 261.63, 196].forEach((f, i) => this.tone(fx, f, 0.35, "triangle", 0.18, i * 0.16));
  }
}

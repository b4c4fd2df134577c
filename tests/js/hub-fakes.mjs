// Fakes for the live melee's Node tests (tests/js/hub-*.test.mjs): connections shaped like
// web/transport/webrtc.js's transports, the host's and the guest's starts, and a clock the test moves.

import { STATUS } from '../../web/transport/transport.js';

/**
 * wirePair(state) -> [x, y]: two ends of one connection; what one sends the other hears on a later
 * microtask, as a data channel. connect() opens both; close() on one leaves the other disconnected.
 */
export function wirePair(state = STATUS.CONNECTED) {
  const make = () => ({ heard: new Set(), status: new Set(), state, other: null, sent: [] });
  const [x, y] = [make(), make()];
  x.other = y;
  y.other = x;
  const setState = (side, next) => {
    side.state = next;
    side.status.forEach((cb) => cb(next, {}));
  };
  const end = (me) => ({
    get status() {
      return me.state;
    },
    send(wire) {
      if (me.state !== STATUS.CONNECTED) return { ok: false, error: { code: 'not-connected' } };
      me.sent.push(wire);
      queueMicrotask(() => me.other.heard.forEach((cb) => cb(wire)));
      return { ok: true };
    },
    onMessage: (cb) => { me.heard.add(cb); return () => me.heard.delete(cb); },
    onStatus: (cb) => { me.status.add(cb); cb(me.state, {}); return () => me.status.delete(cb); },
    connect() {
      setState(me, STATUS.CONNECTED);
      setState(me.other, STATUS.CONNECTED);
    },
    close() {
      if (me.state === STATUS.CLOSED) return;
      setState(me, STATUS.CLOSED);
      if (me.other.state !== STATUS.CLOSED) setState(me.other, STATUS.DISCONNECTED);
    },
  });
  return [end(x), end(y)];
}

/** fakeRtc() -> startHost/startGuest as webrtc.js's, over wirePair: an answer applied connects both ends. */
export function fakeRtc() {
  const offers = new Map(); // offer code -> the host's end and the guest's
  let made = 0;
  return {
    async startHost() {
      const [hostEnd, guestEnd] = wirePair(STATUS.CONNECTING);
      const code = `WHC1.offer${++made}`;
      offers.set(code, { hostEnd, guestEnd });
      const acceptAnswer = async (text) => {
        const link = offers.get(text.replace('WHA1.answer-', 'WHC1.'));
        if (!link || link.hostEnd !== hostEnd) return { ok: false, error: { code: 'not-this-offer' } };
        queueMicrotask(() => hostEnd.connect());
        return { ok: true };
      };
      return { ok: true, code, transport: hostEnd, acceptAnswer };
    },
    async startGuest(text) {
      const link = offers.get(text);
      if (!link) return { ok: false, error: { code: 'corrupted' } };
      return { ok: true, code: text.replace('WHC1.', 'WHA1.answer-'), transport: link.guestEnd };
    },
    ends: (offer) => offers.get(offer),
  };
}

/** fakeClock() -> {now(), every(ms, fn) -> stop, advance(ms)}: timers that run only when the test moves time. */
export function fakeClock() {
  const jobs = [];
  const clock = {
    t: 0,
    now: () => clock.t,
    every(ms, fn) {
      const job = { ms, fn, due: clock.t + ms };
      jobs.push(job);
      return () => jobs.splice(jobs.indexOf(job), 1);
    },
    advance(ms) {
      const end = clock.t + ms;
      for (;;) {
        const job = jobs.filter((j) => j.due <= end).sort((a, b) => a.due - b.due)[0];
        if (!job) break;
        clock.t = job.due;
        job.due += job.ms;
        job.fn();
      }
      clock.t = end;
    },
  };
  return clock;
}

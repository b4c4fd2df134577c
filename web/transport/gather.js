// Gathering this side's addresses for a connection code, and what the candidates and STUN servers
// say (docs/webrtc.md, "What the candidates say"); the guest's keep-open rounds.

import { parseSdp } from './codec/sdp.js';

// The parsed candidates of an SDP (none when it cannot be read: then nothing is diagnosed).
export function candidatesOf(sdp) {
  const r = parseSdp(sdp);
  return r.ok ? r.fields.candidates : [];
}


// Resolves when gathering is complete, when no candidate came for quietMs since the last one (a
// STUN server that has not answered by then is not coming), or when the time is up; the code then
// carries what was found.
export function gatheringDone(pc, timeoutMs, quietMs) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') {
      resolve();
      return;
    }
    const timer = setTimeout(finish, timeoutMs);
    let quiet = null;
    function onCandidate() {
      clearTimeout(quiet);
      quiet = setTimeout(finish, quietMs);
    }
    function onChange() {
      if (pc.iceGatheringState === 'complete') finish();
    }
    function finish() {
      clearTimeout(timer);
      clearTimeout(quiet);
      pc.removeEventListener('icegatheringstatechange', onChange);
      pc.removeEventListener('icecandidate', onCandidate);
      resolve();
    }
    pc.addEventListener('icegatheringstatechange', onChange);
    pc.addEventListener('icecandidate', onCandidate);
  });
}

/**
 * watchStun(pc, iceServers, onChange) -> {asked: how many stun: URLs, errors: [{url, errorCode,
 * errorText}]} (ice.js stunOutcome reads it, with the public addresses the SDP holds). Errors come
 * on the connection's icecandidateerror events, and a slow server's public address as a late
 * candidate, also after the code is made (a failed name lookup takes seconds): onChange() is
 * then called, so that what the page says follows.
 */
export function watchStun(pc, iceServers, onChange) {
  const urls = iceServers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls])).filter((u) => /^stuns?:/.test(u));
  const stun = { asked: urls.length, errors: [] };
  pc.addEventListener('icecandidateerror', (e) => {
    if (!/^stuns?:/.test(String(e.url || ''))) return;
    stun.errors.push({ url: e.url, errorCode: e.errorCode, errorText: e.errorText });
    onChange();
  });
  pc.addEventListener('icecandidate', (e) => {
    if (e.candidate && / typ srflx/.test(e.candidate.candidate)) onChange();
  });
  return stun;
}

// The guest's keep-open step: the offer's candidates added again, each under a foundation never
// used before. libwebrtc ignores a candidate it already has (even with another priority), but one
// with a new foundation makes a new pair, whose checks leave from the same local port and keep the
// guest's NAT mapping, and its permission for the host's address, alive.
export function keepOpenTick(pc, offerSdp) {
  const lines = offerSdp.split(/\r?\n/).filter((l) => l.startsWith('a=candidate:'));
  const mid = /^a=mid:(.*)$/m.exec(offerSdp)?.[1]?.trim() ?? '0';
  let round = 0;
  return () => {
    round++;
    lines.forEach((line, i) => {
      const candidate = line.slice(2).replace(/^candidate:\S+/, `candidate:${round * 100 + i + 1}`);
      pc.addIceCandidate({ candidate, sdpMid: mid, sdpMLineIndex: 0 }).catch(() => {
        // A closed connection or a name that no longer resolves: the next round tries again.
      });
    });
  };
}

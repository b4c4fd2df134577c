// A stand-in for navigator.locks in the Node tests of the store (web/store/tab-lock.js).

/** A fake navigator.locks shared by the "tabs" of one test: exclusive locks, ifAvailable, steal. */
export function fakeLocks() {
  const held = new Map(); // name -> {abort}
  return {
    request(name, options, callback) {
      if (held.has(name) && options.ifAvailable) return Promise.resolve(callback(null));
      if (held.has(name) && options.steal) held.get(name).abort(Object.assign(new Error('stolen'), { name: 'AbortError' }));
      return new Promise((resolve, reject) => {
        const mine = { abort: reject };
        held.set(name, mine);
        Promise.resolve(callback({ name })).then((value) => {
          if (held.get(name) === mine) held.delete(name);
          resolve(value);
        });
      });
    },
  };
}

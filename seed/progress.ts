/** A counter that logs `label: done/total` at every tenth of the way (and at the end). */
export function progress(log: (line: string) => void, label: string, total: number): () => void {
  let done = 0;
  let logged = 0;
  return () => {
    done++;
    const tenths = Math.floor((done * 10) / total);
    if (tenths > logged || done === total) {
      logged = tenths;
      log(`${label}: ${done}/${total}`);
    }
  };
}

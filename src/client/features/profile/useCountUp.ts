import { useEffect, useRef, useState } from "react";

const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Counts from the last shown value to `target` over `durationMs` (ease-out), and reports when
 * it got there. People who ask for less motion see the figure at once.
 */
export function useCountUp(target: number, durationMs: number) {
  const [value, setValue] = useState(() => (reducedMotion() ? target : 0));
  const [done, setDone] = useState(false);
  const shown = useRef(value);

  useEffect(() => {
    const from = shown.current;
    if (reducedMotion() || from === target) {
      shown.current = target;
      setValue(target);
      setDone(true);
      return;
    }
    const start = performance.now();
    let frame = 0;
    const tick = (now: number) => {
      const t = Math.min(1, (now - start) / durationMs);
      const next = Math.round(from + (target - from) * (1 - (1 - t) ** 3));
      shown.current = next;
      setValue(next);
      if (t < 1) frame = requestAnimationFrame(tick);
      else setDone(true);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [target, durationMs]);

  return { value, done };
}

/** Counts down from `seconds` once `running` turns true; 0 means finished. */
export function useCountdown(seconds: number, running: boolean) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (!running || left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [running, left]);
  return left;
}

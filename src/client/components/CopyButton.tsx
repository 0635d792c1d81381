import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { COPY_CONFIRM_MS } from "../../shared/constants";
import { Icon } from "../../ui/icons";

interface CopyButtonProps {
  text: string;
  label?: string;
  /** Called after a successful copy, e.g. for the page's own toast. */
  onCopied?: () => void;
  /** Icon only (tables): `label` becomes the button's accessible name and tooltip. */
  compact?: boolean;
}

/** Copies `text` and says "Copied!" for 2 seconds (the spec's copy confirmation). */
export function CopyButton({ text, label = "Copy", onCopied, compact = false }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      onCopied?.();
    } catch {
      // Clipboard access is refused on insecure origins and in some embedded browsers.
      toast.error("Could not copy. Please select the text and copy it manually.");
    }
  }

  if (compact) {
    return (
      <button
        type="button"
        className="btn btn-secondary focus-ring min-h-7 shrink-0 px-1.5 py-1"
        onClick={copy}
        disabled={!text}
        aria-label={label}
        title={copied ? "Copied!" : label}
      >
        <Icon name={copied ? "check" : "copy"} />
        <span className="sr-only" aria-live="polite">
          {copied ? "Copied!" : ""}
        </span>
      </button>
    );
  }
  return (
    <button type="button" className="btn btn-secondary btn-sm focus-ring inline-flex items-center gap-2" onClick={copy} disabled={!text}>
      <Icon name={copied ? "check" : "copy"} />
      <span aria-live="polite">{copied ? "Copied!" : label}</span>
    </button>
  );
}

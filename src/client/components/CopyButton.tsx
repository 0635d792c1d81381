import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { COPY_CONFIRM_MS } from "../../shared/constants";
import { CheckIcon, CopyIcon } from "./icons";

interface CopyButtonProps {
  text: string;
  label?: string;
  /** Called after a successful copy, e.g. for the page's own toast. */
  onCopied?: () => void;
}

/** Copies `text` and says "Copied!" for 2 seconds (the spec's copy confirmation). */
export function CopyButton({ text, label = "Copy", onCopied }: CopyButtonProps) {
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

  return (
    <button type="button" className="btn btn-secondary btn-sm focus-ring inline-flex items-center gap-2" onClick={copy} disabled={!text}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span aria-live="polite">{copied ? "Copied!" : label}</span>
    </button>
  );
}

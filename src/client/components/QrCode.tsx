import { useMemo } from "react";
import { renderSVG } from "uqr";

/**
 * A QR code drawn here, in the browser (what it holds, a 2FA secret or a deposit address, never
 * goes to a third-party service), as an SVG image: the page's CSP allows data: images and
 * nothing inline.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(text, { border: 2, whiteColor: "#ffffff", blackColor: "#000000" }))}`, [text]);
  return <img src={src} alt={label} width={200} height={200} className="rounded-control bg-white p-2" />;
}

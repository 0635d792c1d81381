import { colors } from "../../../shared/tokens";

/**
 * Our own isometric crypto scene: a platform, a vault tower, stacked USDT coins and a small
 * chain of blocks. Drawn from 3-D boxes projected here, so it stays sharp at any size and
 * costs no image request.
 */
const COS = Math.cos(Math.PI / 6);
const SIN = 0.5;
const UNIT = 13;
const ORIGIN = { x: 250, y: 190 };

type P3 = [x: number, y: number, z: number];
const project = ([x, y, z]: P3) => `${(ORIGIN.x + (x - y) * COS * UNIT).toFixed(1)},${(ORIGIN.y + ((x + y) * SIN - z) * UNIT).toFixed(1)}`;
const poly = (points: P3[]) => points.map(project).join(" ");

interface BoxProps {
  at: P3;
  size: P3;
  top: string;
  left: string;
  right: string;
}

function Box({ at: [x, y, z], size: [w, d, h], top, left, right }: BoxProps) {
  const zt = z + h;
  return (
    <g>
      <polygon points={poly([[x, y + d, zt], [x + w, y + d, zt], [x + w, y + d, z], [x, y + d, z]])} fill={left} />
      <polygon points={poly([[x + w, y, zt], [x + w, y + d, zt], [x + w, y + d, z], [x + w, y, z]])} fill={right} />
      <polygon points={poly([[x, y, zt], [x + w, y, zt], [x + w, y + d, zt], [x, y + d, zt]])} fill={top} />
    </g>
  );
}

/** A coin lying flat, seen in isometric view: an ellipse with a rim and the tether sign. */
function Coin({ at, r = 1.6, rim = 0.5 }: { at: P3; r?: number; rim?: number }) {
  const [cx, cy] = project(at).split(",").map(Number) as [number, number];
  const rx = r * UNIT * COS * 1.15;
  const ry = rx * 0.58;
  const depth = rim * UNIT;
  return (
    <g>
      <path d={`M${cx - rx},${cy} v${depth} a${rx},${ry} 0 0 0 ${2 * rx},0 v${-depth} Z`} fill="url(#art-coin-side)" />
      <ellipse cx={cx} cy={cy} rx={rx} ry={ry} fill="url(#art-coin-top)" />
      <ellipse cx={cx} cy={cy} rx={rx * 0.72} ry={ry * 0.72} fill="none" stroke="#fff" strokeOpacity=".45" strokeWidth="1.2" />
      <path d={`M${cx - rx * 0.32},${cy - ry * 0.3} h${rx * 0.64} M${cx},${cy - ry * 0.3} v${ry * 0.75}`} stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </g>
  );
}

const c = colors;
const BLOCKS: P3[] = [
  [9, -5, 0.6],
  [12.5, -1, 0.6],
  [12, 4.5, 0.6],
];

export function HeroArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 500 400" className={className} role="img" aria-labelledby="hero-art-title">
      <title id="hero-art-title">Isometric illustration: a vault tower on a platform with stacked USDT coins and a chain of blocks</title>
      <defs>
        <radialGradient id="art-glow" cx="50%" cy="55%" r="50%">
          <stop offset="0" stopColor={c.brand.violet} stopOpacity=".45" />
          <stop offset="1" stopColor={c.brand.violet} stopOpacity="0" />
        </radialGradient>
        <linearGradient id="art-coin-top" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={c.figure.green} />
          <stop offset="1" stopColor={c.accepted} stopOpacity=".75" />
        </linearGradient>
        <linearGradient id="art-coin-side" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={c.accepted} stopOpacity=".8" />
          <stop offset="1" stopColor={c.ink.deep} />
        </linearGradient>
        <linearGradient id="art-tower" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={c.brand.blue} />
          <stop offset="1" stopColor={c.brand.violet} />
        </linearGradient>
      </defs>
      <ellipse cx="250" cy="230" rx="240" ry="160" fill="url(#art-glow)" />

      {/* platform and its glowing edge */}
      <Box at={[-9, -9, -1.2]} size={[18, 18, 1.2]} top={c.panel.strong} left={c.panel.soft} right={c.panel.DEFAULT} />
      <polygon points={poly([[-9, -9, 0], [9, -9, 0], [9, 9, 0], [-9, 9, 0]])} fill="none" stroke={c.line.strong} strokeOpacity=".7" />

      {/* connections between the blocks and the tower */}
      <polyline points={poly([[0, 0, 5], ...BLOCKS.map(([x, y, z]): P3 => [x + 1, y + 1, z + 2])])} fill="none" stroke={c.figure.blue} strokeDasharray="4 5" strokeWidth="1.5" />

      {/* vault tower */}
      <Box at={[-3, -3, 0]} size={[6, 6, 9]} top={c.figure.violet} left="url(#art-tower)" right={c.brand.violet} />
      <polygon points={poly([[3, -2, 2], [3, 2, 2], [3, 2, 7], [3, -2, 7]])} fill={c.ink.DEFAULT} fillOpacity=".35" />
      {[3, 4.5, 6].map((z) => (
        <polyline key={z} points={poly([[3, -1.4, z], [3, 1.4, z]])} stroke={c.figure.green} strokeWidth="2" />
      ))}
      <Box at={[-2, -2, 9]} size={[4, 4, 0.8]} top={c.fg.DEFAULT} left={c.figure.blue} right={c.brand.blue} />

      {/* stacked coins at the front left */}
      {[0, 0.55, 1.1, 1.65].map((z) => (
        <Coin key={z} at={[-5.5, 5.5, z]} />
      ))}
      {[0, 0.55].map((z) => (
        <Coin key={z} at={[-1.5, 6.5, z]} r={1.3} />
      ))}
      <Coin at={[-9.5, -2, 7]} r={1.9} />

      {/* the chain of blocks */}
      {BLOCKS.map((at, i) => (
        <Box key={i} at={at} size={[2, 2, 2]} top={c.figure.blue} left={c.brand.blue} right={c.line.strong} />
      ))}
    </svg>
  );
}

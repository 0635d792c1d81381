const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A server timestamp in the reader's locale, machine-readable in `dateTime`. */
export function DateTime({ value }: { value: Date }) {
  if (Number.isNaN(value.getTime())) return <span>—</span>;
  return (
    <time dateTime={value.toISOString()} className="whitespace-nowrap">
      {FORMAT.format(value)}
    </time>
  );
}

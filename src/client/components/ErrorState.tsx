import { Icon } from "../../ui/icons";

interface ErrorStateProps {
  title?: string;
  message: string;
  onRetry?: () => void;
}

/** A failed load: a title, the spec's sentence and a way to try again without reloading the page. */
export function ErrorState({ title = "Something went wrong", message, onRetry }: ErrorStateProps) {
  return (
    <div role="alert" className="card flex flex-col items-center gap-3 py-10 text-center">
      <Icon name="alert" className="text-3xl text-declined" />
      <h2 className="card-title">{title}</h2>
      <p className="muted">{message}</p>
      {onRetry && (
        <button type="button" className="btn btn-secondary btn-sm focus-ring" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/**
 * @module
 * The preview panel of /events: one event's details (with Save and
 * Register) without leaving the list, loading, or why it could not be shown.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { EventDetail } from '../api-shapes.ts';
import { EventDetails } from './event-details.tsx';

/**
 * An open panel: the event it is for, its details once loaded (or the
 * refusal's message), and who opened it: a person's Preview moves the focus
 * into the panel, a tool's call does not take the focus from the person.
 */
export type PreviewState = {
  eventId: string;
  event: EventDetail | null;
  error: string | null;
  openedBy: 'person' | 'tool';
};

/** Props of {@link EventPreviewPanel}. */
export type EventPreviewPanelProps = {
  preview: PreviewState;
  /** Close or Escape was pressed. */
  onClose(): void;
};

/**
 * The panel, `data-testid="details-panel"`. Once the details (or the error)
 * are in, it scrolls into view, and when a person opened it the focus moves
 * to its heading (the event's title), so a screen reader reads what opened.
 * Escape anywhere in it closes it, as Close does.
 */
export function EventPreviewPanel({ preview, onClose }: EventPreviewPanelProps) {
  const panel = useRef<HTMLElement>(null);
  const loaded = preview.event !== null || preview.error !== null;
  useEffect(() => {
    const element = panel.current;
    if (element === null || !loaded) return;
    element.scrollIntoView({ block: 'nearest' });
    if (preview.openedBy !== 'person') return;
    const target = element.querySelector<HTMLElement>('[data-testid="event-title"], [data-testid="details-error"]');
    if (target === null) return;
    target.tabIndex = -1;
    target.focus({ preventScroll: true });
  }, [preview.eventId, loaded]);

  return (
    <aside
      ref={panel}
      class="details-panel"
      data-testid="details-panel"
      aria-label="Event preview"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <div class="panel-header">
        <p class="panel-label">Preview</p>
        <button type="button" class="button button-small" data-testid="details-close" aria-label="Close preview" onClick={onClose}>
          Close
        </button>
      </div>
      {!loaded && <p class="panel-loading">Loading…</p>}
      {preview.error !== null && (
        <p class="message message-error" data-testid="details-error" role="alert">
          {preview.error}
        </p>
      )}
      {preview.event !== null && <EventDetails key={preview.event.id} event={preview.event} heading="h2" />}
    </aside>
  );
}

/**
 * The signed-in user's avatar changed (uploaded on /me): the navbar's profile button listens and
 * shows the new image without a reload. Also reaches other tabs of the same browser.
 */
const EVENT = 'crisis:own-avatar-changed';
const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(EVENT) : null;

export function announceOwnAvatar(reference: string | null) {
  window.dispatchEvent(new CustomEvent<string | null>(EVENT, { detail: reference }));
  channel?.postMessage(reference);
}

/** Calls `listener` with the new reference; returns the unsubscribe function. */
export function onOwnAvatarChanged(listener: (reference: string | null) => void): () => void {
  const local = (e: Event) => listener((e as CustomEvent<string | null>).detail);
  const remote = (e: MessageEvent) => listener(e.data as string | null);
  window.addEventListener(EVENT, local);
  channel?.addEventListener('message', remote);
  return () => {
    window.removeEventListener(EVENT, local);
    channel?.removeEventListener('message', remote);
  };
}

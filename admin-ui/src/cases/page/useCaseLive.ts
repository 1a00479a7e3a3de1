import { useEffect, useRef } from 'react';
import { liveSocket } from '../../live/liveConnection';

/**
 * While the case page is open, its socket joins the case's room (the gateway checks the user may
 * open the case) and every 'case.updated' of that case calls onUpdate. Rejoins after a reconnect.
 */
export function useCaseLive(caseId: number, onUpdate: () => void) {
  const handler = useRef(onUpdate);
  handler.current = onUpdate;
  useEffect(() => {
    const socket = liveSocket();
    if (!socket || !Number.isInteger(caseId)) return;
    const join = () => socket.emit('case.join', { caseId });
    const onEvent = (data: { caseId?: number }) => {
      if (Number(data?.caseId) === caseId) handler.current();
    };
    // 'ready' follows the server's authentication of a (re)connection: join (again) then.
    socket.on('ready', join);
    socket.on('case.updated', onEvent);
    if (socket.connected) join();
    return () => {
      socket.off('ready', join);
      socket.off('case.updated', onEvent);
      if (socket.connected) socket.emit('case.leave', { caseId });
    };
  }, [caseId]);
}

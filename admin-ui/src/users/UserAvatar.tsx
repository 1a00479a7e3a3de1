import { useEffect, useState } from 'react';
import { Avatar } from '@mui/material';
import { avatarUrl } from './uploads';

/** A user's avatar (spec 03 §9 sizes: sm 34, md 50, lg 183, lists 35), initials when there is none. */
export function UserAvatar({ reference, name, size, testId }: { reference?: string | null; name: string; size: number; testId?: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSrc(null);
    if (reference) void avatarUrl(reference).then((u) => live && setSrc(u));
    return () => {
      live = false;
    };
  }, [reference]);
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
  return (
    <Avatar
      src={src ?? undefined}
      alt={name}
      sx={{ width: size, height: size, fontSize: Math.max(12, size * 0.4) }}
      data-testid={testId}
      data-avatar={reference ?? ''}
      data-loaded={src ? 'true' : 'false'}
    >
      {initials}
    </Avatar>
  );
}

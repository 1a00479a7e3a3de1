import { useEffect, useState } from 'react';
import {
  Badge,
  Box,
  Button,
  CircularProgress,
  Divider,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Popover,
  Switch,
  Tooltip,
  Typography,
} from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { badgeText, formatDateTime, notificationText, type NotificationItem } from '@crisis/forms/core';
import { useAppData } from '../data/query';
import { useNotificationFeed } from './NotificationFeed';
import { useOpenNotification } from './openNotification';

/** The resolved list of the last 2 days, with the resolver's full name (looked up by id, 25 at a time, when missing). */
function ResolvedList({ onOpen }: { onOpen(n: NotificationItem): void }) {
  const dp = useAppData();
  const [items, setItems] = useState<NotificationItem[] | null>(null);
  const [names, setNames] = useState<Record<number, string>>({});
  const load = async () => {
    const rows = await dp.notificationsResolved();
    setItems(rows);
    const missing = rows.filter((r) => r.resolvedById && !r.resolvedByName).map((r) => r.resolvedById!);
    if (missing.length) setNames(Object.fromEntries((await dp.notificationUsers(missing)).map((u) => [u.id, u.fullName])));
  };
  useEffect(() => {
    void load().catch(() => setItems([]));
    // Loaded once per opening of the resolved list.
  }, []);
  if (!items) return <CircularProgress size={24} sx={{ m: 2 }} />;
  if (!items.length)
    return (
      <Typography sx={{ p: 2 }} color="text.secondary" data-testid="notification-empty">
        Nothing resolved in the last 2 days.
      </Typography>
    );
  return (
    <List dense disablePadding data-testid="notification-resolved-list">
      {items.map((n) => (
        <ListItem
          key={n.id}
          disablePadding
          data-testid="notification-item"
          data-id={n.id}
          secondaryAction={
            <Button
              size="small"
              data-testid="notification-dismiss"
              onClick={async () => {
                await dp.dismissNotification(n.id);
                setItems((x) => (x ?? []).filter((i) => i.id !== n.id));
              }}
            >
              Dismiss
            </Button>
          }
        >
          <ListItemButton onClick={() => onOpen(n)} sx={{ pr: 11 }}>
            <ListItemText
              primary={notificationText(n)}
              secondary={`Resolved by ${n.resolvedByName ?? names[n.resolvedById ?? 0] ?? 'someone'}${n.resolvedAt ? ` · ${formatDateTime(n.resolvedAt)}` : ''}`}
              secondaryTypographyProps={{ 'data-testid': 'notification-resolver' } as object}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

/**
 * The notification bell (spec 02 §2): the unresolved count (99+ above 99), a dropdown of the
 * unresolved ones with resolve, a switch to the resolved list of the last 2 days and a back
 * button; clicking one opens its case.
 */
export function NotificationBell() {
  const feed = useNotificationFeed();
  const dp = useAppData();
  const openNotification = useOpenNotification();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [resolved, setResolved] = useState(false);
  if (!feed) return null;
  const close = () => {
    setAnchor(null);
    setResolved(false);
  };
  const open = (n: NotificationItem) => {
    close();
    openNotification(n);
  };
  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          color="inherit"
          data-testid="notification-bell"
          aria-label={`Notifications (${feed.count} unresolved)`}
          onClick={(e) => {
            setAnchor(e.currentTarget);
            // What the dropdown shows is read (shown in bold until then).
            const unread = feed.items.filter((n) => !n.isRead).map((n) => n.id);
            if (unread.length) void dp.markNotificationsRead(unread.slice(0, 100)).catch(() => undefined);
          }}
        >
          <Badge
            color="error"
            invisible={feed.count === 0}
            badgeContent={<span data-testid="notification-count">{badgeText(feed.count)}</span>}
          >
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 420, maxHeight: 520 } } }}
      >
        <Box data-testid="notification-dropdown" sx={{ display: 'flex', alignItems: 'center', px: 1.5, py: 1, gap: 1 }}>
          {resolved && (
            <IconButton size="small" aria-label="Back" data-testid="notification-back" onClick={() => setResolved(false)}>
              <ArrowBackIcon fontSize="small" />
            </IconButton>
          )}
          <Typography variant="subtitle1" sx={{ flex: 1 }}>
            {resolved ? 'Resolved (last 2 days)' : 'Notifications'}
          </Typography>
          <FormControlLabel
            control={<Switch size="small" checked={resolved} onChange={(e) => setResolved(e.target.checked)} data-testid="notification-resolved-switch" />}
            label="Resolved"
          />
        </Box>
        <Divider />
        {resolved ? (
          <ResolvedList onOpen={open} />
        ) : feed.items.length ? (
          <List dense disablePadding data-testid="notification-list">
            {feed.items.map((n) => (
              <ListItem
                key={n.id}
                disablePadding
                data-testid="notification-item"
                data-id={n.id}
                secondaryAction={
                  <Button size="small" data-testid="notification-resolve" onClick={() => void feed.resolve(n.id)}>
                    Resolve
                  </Button>
                }
              >
                <ListItemButton onClick={() => open(n)} sx={{ pr: 11 }}>
                  <ListItemText
                    primary={notificationText(n)}
                    primaryTypographyProps={{ fontWeight: n.isRead ? 400 : 600 }}
                    secondary={formatDateTime(n.createdAt)}
                  />
                </ListItemButton>
              </ListItem>
            ))}
            {feed.nextCursor && (
              <Box component="li" sx={{ textAlign: 'center', py: 1, listStyle: 'none' }}>
                <Button size="small" data-testid="notification-older" onClick={() => void feed.loadOlder()}>
                  Show older
                </Button>
              </Box>
            )}
          </List>
        ) : (
          <Typography sx={{ p: 2 }} color="text.secondary" data-testid="notification-empty">
            No unresolved notifications.
          </Typography>
        )}
      </Popover>
    </>
  );
}

import { useState, type MouseEvent } from 'react';
import { Button, ListItemText, Menu, MenuItem } from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Link } from 'react-router-dom';
import type { NavLink } from '@crisis/forms/core';
import { useSession } from '../auth/session';

type Entry = NavLink & { group?: string };
type Item = { kind: 'link'; entry: Entry } | { kind: 'group'; name: string; entries: Entry[] };

/** Entries in order; grouped entries (Insurance) become one submenu at the place of the first. */
function itemsOf(entries: Entry[]): Item[] {
  const items: Item[] = [];
  for (const e of entries) {
    if (!e.group) items.push({ kind: 'link', entry: e });
    else {
      const g = items.find((i): i is Extract<Item, { kind: 'group' }> => i.kind === 'group' && i.name === e.group);
      if (g) g.entries.push(e);
      else items.push({ kind: 'group', name: e.group, entries: [e] });
    }
  }
  return items;
}

/** The Admin dropdown (ITP admins and facility admins), each entry only for its allowed roles. */
export function AdminMenu() {
  const { navigation } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [sub, setSub] = useState<{ name: string; anchor: HTMLElement } | null>(null);
  if (navigation.admin.length === 0) return null;
  const close = () => {
    setSub(null);
    setAnchor(null);
  };
  const items = itemsOf(navigation.admin);
  return (
    <>
      <Button
        color="inherit"
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="nav-admin-menu"
        aria-haspopup="menu"
        aria-expanded={!!anchor}
      >
        Admin
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={close} data-testid="admin-menu">
        {items.map((item) =>
          item.kind === 'link' ? (
            <MenuItem key={item.entry.to} component={Link} to={item.entry.to} onClick={close} data-testid={`admin-entry-${item.entry.to}`}>
              {item.entry.label}
            </MenuItem>
          ) : (
            <MenuItem
              key={`group-${item.name}`}
              onClick={(e: MouseEvent<HTMLElement>) => setSub({ name: item.name, anchor: e.currentTarget })}
              data-testid={`admin-group-${item.name}`}
              aria-haspopup="menu"
            >
              <ListItemText>{item.name}</ListItemText>
              <ChevronRightIcon fontSize="small" />
            </MenuItem>
          ),
        )}
      </Menu>
      {items.map(
        (item) =>
          item.kind === 'group' && (
            <Menu
              key={`submenu-${item.name}`}
              anchorEl={sub?.anchor}
              open={sub?.name === item.name}
              onClose={() => setSub(null)}
              anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
              transformOrigin={{ vertical: 'top', horizontal: 'left' }}
              data-testid={`admin-submenu-${item.name}`}
            >
              {item.entries.map((e) => (
                <MenuItem key={e.to} component={Link} to={e.to} onClick={close} data-testid={`admin-entry-${e.to}`}>
                  {e.label}
                </MenuItem>
              ))}
            </Menu>
          ),
      )}
    </>
  );
}

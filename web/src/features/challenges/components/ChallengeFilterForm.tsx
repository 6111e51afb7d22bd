import { CATEGORIES, DIFFICULTIES, MIN_RATING_FILTER_OPTIONS } from '@ctf/contract';
import { Button, Col, Form, Row } from 'react-bootstrap';
import type { ChallengeFilters } from '../filter';
import { ValueOptions } from '../../../components/ValueOptions';

interface Props {
  filters: ChallengeFilters;
  authors: readonly string[];
  onTeam: boolean;
  onChange: (next: ChallengeFilters) => void;
  onClear: () => void;
}

type Flag = 'myCompleted' | 'myUncompleted' | 'teamCompleted' | 'teamUncompleted';

/** The Compete page's filters (docs/product.md §2); the team boxes show only to team members. */
export function ChallengeFilterForm({ filters, authors, onTeam, onChange, onClear }: Props) {
  const set = <K extends keyof ChallengeFilters>(key: K, value: ChallengeFilters[K]) =>
    onChange({ ...filters, [key]: value });
  const boxes: [Flag, string][] = [
    ['myCompleted', 'My Completed'],
    ['myUncompleted', 'My Uncompleted'],
    ...(onTeam
      ? ([
          ['teamCompleted', 'Team Completed'],
          ['teamUncompleted', 'Team Uncompleted'],
        ] as [Flag, string][])
      : []),
  ];

  return (
    <Form role="search" aria-label="Filter challenges" className="mb-4" onSubmit={(e) => e.preventDefault()}>
      <Row className="g-3">
        <Col xs={12} lg={4}>
          <Form.Group controlId="filter-search">
            <Form.Label>Search</Form.Label>
            <Form.Control
              type="search"
              placeholder="Name, category or author"
              value={filters.search}
              onChange={(e) => set('search', e.target.value)}
            />
          </Form.Group>
        </Col>
        <Col xs={12} sm={6} lg={2}>
          <Form.Group controlId="filter-category">
            <Form.Label>Category</Form.Label>
            <Form.Select value={filters.category} onChange={(e) => set('category', e.target.value)}>
              <option value="">All categories</option>
              <ValueOptions values={CATEGORIES} />
            </Form.Select>
          </Form.Group>
        </Col>
        <Col xs={12} sm={6} lg={2}>
          <Form.Group controlId="filter-difficulty">
            <Form.Label>Difficulty</Form.Label>
            <Form.Select value={filters.difficulty} onChange={(e) => set('difficulty', e.target.value)}>
              <option value="">All difficulties</option>
              <ValueOptions values={DIFFICULTIES} />
            </Form.Select>
          </Form.Group>
        </Col>
        <Col xs={12} sm={6} lg={2}>
          <Form.Group controlId="filter-rating">
            <Form.Label>Minimum rating</Form.Label>
            <Form.Select
              value={String(filters.minRating)}
              onChange={(e) => set('minRating', Number(e.target.value))}
            >
              {MIN_RATING_FILTER_OPTIONS.map((o) => (
                <option key={o.value} value={String(o.value)}>
                  {o.label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col xs={12} sm={6} lg={2}>
          <Form.Group controlId="filter-author">
            <Form.Label>Author</Form.Label>
            <Form.Select value={filters.author} onChange={(e) => set('author', e.target.value)}>
              <option value="">All authors</option>
              <ValueOptions values={authors} />
            </Form.Select>
          </Form.Group>
        </Col>
      </Row>
      <div className="d-flex flex-wrap align-items-center gap-3 mt-3">
        {boxes.map(([key, label]) => (
          <Form.Check
            key={key}
            id={`filter-${key}`}
            type="checkbox"
            label={label}
            checked={filters[key]}
            onChange={(e) => set(key, e.target.checked)}
          />
        ))}
        <Button variant="outline-secondary" size="sm" onClick={onClear}>
          Clear Filters
        </Button>
      </div>
    </Form>
  );
}

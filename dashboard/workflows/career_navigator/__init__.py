"""CareerNavigator's own dashboard parts: the Satisfaction tab of the Metrics page."""
